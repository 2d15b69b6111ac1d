// A deep copy of a JSON value (all the store holds), through its JSON text:
// undefined properties are left out and a `__proto__` key stays data, as JSON
// has them.
export const jsonCopy = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));
