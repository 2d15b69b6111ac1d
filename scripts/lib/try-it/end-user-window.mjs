// A verification's `url` (the end user's page) in a new tab, served by the
// in-page sandbox, which also answers the tab's forms and links: the tab asks
// no server for anything. A redirect leaving the sandbox (the verification's
// redirect addresses) is shown instead of followed.
import { escapeHtml } from './panel.mjs';

const BANNER_STYLE =
  'margin:0 0 16px;padding:8px 12px;background:#fff4d6;border:1px solid #e0b64a;font:14px/1.4 sans-serif;color:#3b2f00';

/**
 * Opens the end user's page at `address` in a new tab. Call it from the
 * click that asks for it (browsers allow a new window only then); returns
 * false when the browser blocked the window anyway.
 */
export function openEndUserPage(sandbox, address) {
  const tab = window.open('', '_blank');
  if (!tab) return false;
  show(sandbox, tab, new Request(address)).catch((err) => write(tab, 500, failurePage(err)));
  return true;
}

/** Answers `request` with the sandbox and shows the page it ends on in `tab`. */
async function show(sandbox, tab, first) {
  let request = first;
  let response = await sandbox.fetch(request);
  // Post/redirect/get and the hand-back are 303s: follow those inside the sandbox.
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops++) {
    const next = new URL(response.headers.get('location') ?? '/', request.url);
    if (next.origin !== new URL(sandbox.url).origin) {
      write(tab, 200, handedBackPage(next.href));
      return;
    }
    request = new Request(next);
    response = await sandbox.fetch(request);
  }
  write(tab, response.status, await response.text());
  const base = request.url;
  tab.document.addEventListener('submit', (event) => {
    event.preventDefault();
    const form = event.target;
    // A URLSearchParams body is sent as application/x-www-form-urlencoded, as a browser sends the form.
    const body = new URLSearchParams(new FormData(form, event.submitter));
    const post = new Request(new URL(form.getAttribute('action') ?? '', base), { method: 'POST', body });
    show(sandbox, tab, post).catch((err) => write(tab, 500, failurePage(err)));
  });
  tab.document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[href]');
    if (!link) return;
    event.preventDefault();
    const get = new Request(new URL(link.getAttribute('href'), base));
    show(sandbox, tab, get).catch((err) => write(tab, 500, failurePage(err)));
  });
}

/** Replaces the tab's document (which also drops the listeners of the one before) and says who answered. */
function write(tab, status, html) {
  tab.document.open();
  tab.document.write(html);
  tab.document.close();
  const banner = `<p role="note" id="try-it-banner" style="${BANNER_STYLE}">Served by the local sandbox in this package, running in the reference page that opened this tab (status ${status}), not by the service. Closing that page ends this sandbox.</p>`;
  tab.document.body?.insertAdjacentHTML('afterbegin', banner);
}

function handedBackPage(address) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Handed back to the partner</title></head>
<body style="font:16px/1.5 sans-serif;margin:24px;max-width:720px">
<h1>Handed back to the partner</h1>
<p id="handed-back">The end user's browser would now go to <code>${escapeHtml(address)}</code> (the verification's redirect address). This tab stops here: the reference page sends nothing outside itself.</p>
<p>Read the verification with Try it on <code>GET /verifications/{verificationId}</code> in the reference page, and see the webhooks this step emitted in its Webhooks list.</p>
</body></html>`;
}

function failurePage(err) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not shown</title></head>
<body style="font:16px/1.5 sans-serif;margin:24px"><h1>Not shown</h1>
<p role="alert">The local sandbox in the reference page could not answer this page: ${escapeHtml(err?.message ?? err)}. Reload the reference page and open the verification's url again.</p></body></html>`;
}
