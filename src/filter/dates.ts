/** Calendar dates and UTC timestamps as CQL2 writes them, read into milliseconds since 1970 (UTC). */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD`, a real calendar day: its 00:00Z; otherwise null. */
export function parseDate(text: string): number | null {
  if (text.length !== 10 || text[4] !== '-' || text[7] !== '-') return null;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return dayNumber(year, month, day) * DAY_MS;
}

/** `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (`T` and `Z` in either case): its instant; otherwise null. */
export function parseTimestamp(text: string): number | null {
  if (text.length < 20) return null;
  const date = parseDate(text.slice(0, 10));
  const t = text[10];
  const z = text[text.length - 1];
  if (date === null || (t !== 'T' && t !== 't') || (z !== 'Z' && z !== 'z') || text[13] !== ':' || text[16] !== ':') return null;
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  let fraction = 0;
  if (text.length > 20) {
    // "." and at least one digit before the Z
    const fractionDigits = text.length - 21;
    if (text[19] !== '.' || fractionDigits < 1 || digits(text, 20, fractionDigits) < 0) return null;
    fraction = Number(`0.${text.slice(20, 20 + fractionDigits)}`);
  }
  return date + ((hour * 60 + minute) * 60 + second + fraction) * 1000;
}

/** The non-negative integer the `count` ASCII digits at `start` spell, or -1. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = text.charCodeAt(i);
    if (!(code >= 0x30 && code <= 0x39)) return -1;
    value = value * 10 + (code - 0x30);
  }
  return count > 0 ? value : -1;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to the given proleptic Gregorian day (negative before 1970). */
function dayNumber(year: number, month: number, day: number): number {
  // Howard Hinnant's days_from_civil.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}
