// The page every server-rendered HTML answer shares (sign-in and consent, sign-in errors, the
// dashboard's "not built" notice): plain HTML with inline CSS, no inline script and no external
// asset (nothing loads from another origin; the browser's own /favicon.ico request is answered by
// src/http/dashboard.ts). Everything shown is escaped.

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

/** A page saying one thing: a title and a sentence. */
export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
