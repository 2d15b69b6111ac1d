// A deep copy of a JSON value through its text: undefined properties left out, a `__proto__` key kept as data.
export const jsonCopy = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));
