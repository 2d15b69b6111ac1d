// The string formats the webhook schemas use, as ajv-formats checks them in full mode (RFC 3339 calendar days, zones
// and the leap second; RFC 4122 UUIDs), so that a payload is judged as the partner document's validator judges it.

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function date(text: string): boolean {
  const m = /^(\d\d\d\d)-(\d\d)-(\d\d)$/.exec(text);
  if (!m) return false;
  const [year, month, day] = m.slice(1).map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]);
}

function time(text: string): boolean {
  const m = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)$/i.exec(text);
  if (!m) return false;
  // The zone's sign is group 5; an absent zone hour or minute is 0.
  const [hour, minute, second, , , zoneHour, zoneMinute] = m.slice(1).map((group) => +(group ?? 0));
  const sign = m[5] === '-' ? -1 : 1;
  if (zoneHour > 23 || zoneMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/** Format name to check; a string of an unlisted format is not checked (the build refuses one). */
export const FORMATS: Record<string, (text: string) => boolean> = {
  date,
  'date-time': (text) => {
    const parts = text.split(/t|\s/i);
    return parts.length === 2 && date(parts[0]) && time(parts[1]);
  },
  uuid: (text) => /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(text),
};
