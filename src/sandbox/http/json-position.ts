// Where a request body stops being JSON (line, column, offset). V8 names the
// offset for most mistakes; otherwise it is the shortest failing prefix.

/** V8's message and the offset it names, if any. */
function failure(text: string): { message: string; at?: number } | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    const { message } = err as Error;
    const at = / at position (\d+)/.exec(message)?.[1];
    return {
      message,
      at: at ? Number(at) : message.startsWith('Unexpected end of JSON input') ? text.length : undefined,
    };
  }
}

/**
 * The first mistake of a text that is not JSON, undefined when it parses: `what` V8 says is wrong (without its "in
 * JSON at position N"), and the offset of the first character that cannot be JSON (the text's length when it ends
 * too soon) with its 1-based line and column.
 */
export function jsonMistake(text: string) {
  const f = failure(text);
  if (!f) return undefined;
  let position = f.at;
  if (position === undefined) {
    // The shortest prefix that fails before its end (a prefix of text that is JSON so far fails only there) ends
    // just after the offending character: about 20 parses for 1 MiB.
    let [lo, hi] = [1, text.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const prefix = failure(text.slice(0, mid));
      if (prefix && (prefix.at === undefined || prefix.at < mid)) hi = mid;
      else lo = mid + 1;
    }
    position = lo - 1;
  }
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - (before.lastIndexOf('\n') + 1) + 1;
  const what = f.message.startsWith('Unexpected end of JSON input')
    ? 'it ends too soon'
    : f.message
        .replace(/ in JSON at position \d+.*$/s, '')
        .replace(/ after JSON at position \d+.*$/s, ' after the JSON value')
        .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
  return { what: what.charAt(0).toLowerCase() + what.slice(1), position, line, column };
}
