// The few HTML pages the sandbox serves to a browser (the home page, the end
// user's page): one self-contained document each, with its styles inline and
// a policy that lets it load nothing from anywhere.
import { utf8Length, type DoorAnswer } from './door.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code{background:#f2f4f7;padding:0 .25rem;border-radius:3px}dt{font-weight:600}dd{margin:0 0 .5rem}
label{display:block;margin:.5rem 0}input{font:inherit;padding:.25rem}
button{font:inherit;padding:.5rem 1rem;margin:.25rem .25rem 0 0;cursor:pointer}`;

/** A whole page: `body` is HTML already escaped where it holds data. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

/** A page as an answer; it may load nothing (no script, image or style from elsewhere) and is never cached. */
export function htmlAnswer(status: number, html: string, headers: Record<string, string> = {}): DoorAnswer {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(utf8Length(html)),
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
      // No Referer (which carries the session token) leaves for another site; same-origin forms keep their Origin.
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body: html,
  };
}
