// What a "Try it" form opens with, read from a bundled document: the
// operation's method and path, its path parameters with their examples, the
// query as the document serializes its examples, the first example of its
// JSON body, and the credential its security asks for. Runs in the page
// (bundled into the in-page sandbox) and in Node (the docs step).
import { exampleOf, operationsOf, queryPairs } from '../code-samples.mjs';
import { deref } from '../schema-view.mjs';

/**
 * The form of one operation as it opens: `query` holds the examples of the
 * required query parameters only, so a list opens unfiltered and shows what
 * the page's sandbox holds; `example` is the whole example query, as the
 * reference shows it, offered as a hint (its filters name the reference's
 * example records, which the page's sandbox does not hold).
 */
export function tryItForm(doc, operationId) {
  const found = operationsOf(doc).find((o) => o.operationId === operationId);
  if (!found) throw new Error(`the document has no operation ${operationId}`);
  const item = doc.paths[found.path];
  const operation = item[found.method];
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(doc, p));
  const query = parameters.filter((p) => p.in === 'query');
  const pairsOf = (list) => new URLSearchParams(list.flatMap((p) => queryPairs(p, exampleOf(doc, p) ?? ''))).toString();
  const media = deref(doc, operation.requestBody)?.content?.['application/json'];
  const body = media === undefined ? undefined : exampleOf(doc, media);
  const security = operation.security ?? doc.security ?? [];
  const schemes = doc.components?.securitySchemes ?? {};
  const scheme = Object.keys(security[0] ?? {}).map((name) => schemes[name])[0];
  return {
    method: found.method.toUpperCase(),
    path: found.path,
    operationId,
    summary: operation.summary ?? operationId,
    pathParameters: parameters
      .filter((p) => p.in === 'path')
      .map((p) => ({ name: p.name, example: String(exampleOf(doc, p) ?? '') })),
    query: pairsOf(query.filter((p) => p.required && exampleOf(doc, p) !== undefined)).replace(/%2C/g, ','),
    example: pairsOf(query.filter((p) => exampleOf(doc, p) !== undefined)).replace(/%2C/g, ','),
    // An operation whose body is optional still opens with its example (`{}` when it has none).
    body: media === undefined ? undefined : JSON.stringify(body ?? {}, null, 2),
    credential: credentialOf(scheme),
  };
}

/** The header the security scheme asks for: `X-Auth-Key` (an API key) or a bearer token. */
function credentialOf(scheme) {
  if (scheme?.type === 'apiKey' && scheme.in === 'header') return { header: scheme.name, kind: 'authKey' };
  if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')
    return { header: 'Authorization', kind: 'accessToken' };
  return undefined;
}
