import { readBundledDocument } from '../package-files.js';
import { Contract } from '../sandbox/contract.js';
import { deref, mergeAllOf, typesOf } from './schema-values.js';
const escape = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
/** The operations of one bundled API, in document order. */
export function loadApi(api) {
    const doc = readBundledDocument(api);
    const scheme = api === 'partner' ? 'authKey' : 'bearer';
    const contract = new Contract(api, doc, { errorSchema: 'Error', security: () => scheme });
    const operations = [];
    for (const route of contract.routes) {
        const item = deref(doc, doc.paths[route.path]);
        const method = route.method.toLowerCase();
        const op = item[method];
        const opPtr = `#/paths/${escape(route.path)}/${method}`;
        const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
            .map((raw) => deref(doc, raw))
            .filter((p) => p.in === 'path' || p.in === 'query')
            .map((p) => {
            const schema = mergeAllOf(doc, p.schema);
            return {
                name: p.name,
                in: p.in,
                required: Boolean(p.required),
                array: typesOf(schema).includes('array'),
                explode: p.explode ?? (p.style ?? 'form') === 'form',
                schema,
            };
        });
        const pointers = new Map();
        for (const [status, raw] of Object.entries(op.responses ?? {})) {
            if (!/^\d{3}$/.test(status) || !deref(doc, raw)?.content?.['application/json'])
                continue;
            pointers.set(Number(status), `${raw.$ref ?? `${opPtr}/responses/${status}`}/content/application~1json/schema`);
        }
        const validators = new Map();
        operations.push({
            api,
            operationId: op.operationId,
            method: route.method,
            path: route.path,
            readOnly: route.method === 'GET',
            params,
            bodySchema: deref(doc, op.requestBody)?.content?.['application/json']?.schema,
            statuses: Object.keys(op.responses ?? {}).filter((s) => /^\d{3}$/.test(s)).map(Number),
            route,
            responseSchemaPointer: (status) => pointers.get(status),
            responseValidator: (status) => {
                const pointer = pointers.get(status);
                if (pointer && !validators.has(status))
                    validators.set(status, contract.compile(pointer));
                return validators.get(status);
            },
        });
    }
    return { api, doc, operations, scheme };
}
