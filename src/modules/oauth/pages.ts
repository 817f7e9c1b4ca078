// The sign-in, consent and message pages: server-rendered plain HTML with inline CSS, no script and
// no external asset (nothing loads from another origin). Everything shown is escaped.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
    font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2328}
  main{width:100%;max-width:400px;margin:24px;padding:32px;background:#fff;border-radius:12px;
    box-shadow:0 1px 3px rgba(0,0,0,.12)}
  h1{font-size:1.35rem;margin:0 0 8px}
  p{margin:0 0 16px;color:#57606a}
  .button,button{display:block;width:100%;padding:10px 14px;margin:0 0 10px;border:1px solid #d0d7de;
    border-radius:8px;background:#fff;color:#1f2328;font:inherit;text-align:center;text-decoration:none;cursor:pointer}
  .button:hover,button:hover{background:#f6f8fa}
  button.primary{background:#1f6feb;border-color:#1f6feb;color:#fff}
  button.primary:hover{background:#1a5fd0}
  label{display:block;margin:0 0 4px;font-weight:600;font-size:.9rem}
  input{display:block;width:100%;padding:9px 12px;margin:0 0 12px;border:1px solid #d0d7de;border-radius:8px;font:inherit}
  hr{border:0;border-top:1px solid #d8dee4;margin:20px 0}
  ul{padding-left:20px;margin:0 0 16px}
  .note{font-size:.85rem;color:#6e7781}
  .dev{border:1px dashed #bf8700;border-radius:8px;padding:16px;background:#fff8c5}
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

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

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
