// The sign-in and consent pages, on the shared page of src/shared/html-page.ts (everything shown is
// escaped).
import { escapeHtml, page } from '../../shared/html-page.ts';

/** A way to sign in shown as a button: each configured identity provider adds one. */
export interface SignInButton {
  label: string;
  /** Where the button leads (same origin): starts that provider's sign-in. */
  href: string;
}

export interface SignInPageInput {
  clientName: string;
  buttons: SignInButton[];
  /** Action of the development e-mail form; undefined when the development sign-in is off. */
  devSignInAction: string | undefined;
  error?: string | undefined;
}

export function signInPage(input: SignInPageInput): string {
  const buttons = input.buttons
    .map((button) => `<a class="button" href="${escapeHtml(button.href)}">Continue with ${escapeHtml(button.label)}</a>`)
    .join('\n');
  const dev = input.devSignInAction
    ? `${input.buttons.length > 0 ? '<hr>' : ''}<form class="dev" method="post" action="${escapeHtml(input.devSignInAction)}">
  <p class="note">Development sign-in: no password, any e-mail. Never on in production.</p>
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" required maxlength="320" autocomplete="email">
  <label for="name">Name (optional)</label>
  <input id="name" name="name" type="text" maxlength="200" autocomplete="name">
  <button class="primary" type="submit">Sign in</button>
</form>`
    : '';
  const none =
    input.buttons.length === 0 && !input.devSignInAction
      ? '<p>No way to sign in is configured on this server. An operator sets the client id and secret of Google, LinkedIn or Facebook.</p>'
      : '';
  const error = input.error ? `<p role="alert"><strong>${escapeHtml(input.error)}</strong></p>` : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to ${escapeHtml(input.clientName)}</p>
${error}${buttons}
${dev}${none}`,
  );
}

export interface ConsentPageInput {
  clientName: string;
  userEmail: string;
  /** Each requested permission with what it allows. */
  scopes: Array<{ scope: string; description: string }>;
  approveAction: string;
  denyAction: string;
}

export function consentPage(input: ConsentPageInput): string {
  const items = input.scopes
    .map((s) => `<li><strong>${escapeHtml(s.description)}</strong> <span class="note">(${escapeHtml(s.scope)})</span></li>`)
    .join('\n');
  return page(
    'Allow access',
    `<h1>Allow ${escapeHtml(input.clientName)}?</h1>
<p>Signed in as ${escapeHtml(input.userEmail)}. ${escapeHtml(input.clientName)} asks to:</p>
<ul>${items}</ul>
<form method="post" action="${escapeHtml(input.approveAction)}"><button class="primary" type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(input.denyAction)}"><button type="submit">Deny</button></form>`,
  );
}
