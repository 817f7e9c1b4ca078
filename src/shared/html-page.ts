// The page every server-rendered HTML answer shares (sign-in and consent, sign-in errors, the
// dashboard's "not built" notice): plain HTML with inline CSS and icon, no inline script and no
// external asset (nothing loads from another origin, and no /favicon.ico is asked for). Everything
// shown is escaped.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The service's mark (the dashboard's index.html has the same). */
const ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%233b4bb0'/%3E%3Cpath d='M10 23V9h7a4.5 4.5 0 0 1 0 9h-7m7 0 5 5' fill='none' stroke='white' stroke-width='3' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E";

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
<link rel="icon" href="${ICON}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

/** A page saying one thing: a title and a sentence. */
export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
