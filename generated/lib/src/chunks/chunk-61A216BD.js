import { createRequire as __vcCreateRequire } from 'node:module';
const require = __vcCreateRequire(import.meta.url);
var e=class extends Error{usage;name="UsageError";constructor(s,r){super(s),this.usage=r}},t={ok:0,failed:1,usage:2};export{e as a,t as b};
