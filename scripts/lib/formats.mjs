// The string formats the validators check that ajv-formats checks with a function (`date`,
// `time`, `date-time`, `uri`): the same verdict as its full (exact) forms on every string, in a
// fraction of the time, except `date-time`, which is RFC 3339 itself. `date`, `time` and
// `date-time` read the characters once instead of running a regular expression, splitting and
// converting; `date` and `time` follow ajv-formats' full checks step by step (RFC 3339: days of
// each month, leap years, leap seconds at 23:59 UTC, time zones required). `date-time` is stricter
// than ajv-formats on three points, as RFC 3339 is: `T`, `t` or a space between date and time (not
// any white space), offsets `+hh:mm` with their colon (not `+hhmm` or `+hh`), hours to 23 (not 24,
// which ajv-formats takes in a leap second); and it reads a long fraction of a second as the
// fraction of its two-digit second. `uri` accepts at once the common shape
// `scheme://host[:port][/path][?query][#fragment]` written in characters every branch of RFC 3986
// allows, a shape whose every string the full check accepts; anything else (user info, IP
// literals, percent-encoding, other characters, other forms) goes to the full check itself. So no
// string gets another verdict than under ajv-formats' full formats but a `date-time` RFC 3339
// refuses (or one whose seconds ajv-formats rounds to 60) (docs/decisions.md, D-62). With them, the count of characters `minLength` and `maxLength` compare. The
// generator copies this file to generated/formats.js, which the precompiled validators import; the
// runtime compilation of tests and benchmarks uses it too.
// An ES module that imports nothing: it loads as it is in Node, edge runtimes, browsers and
// bundles, and the validators that import it need no other package at run time.

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** @param {number} year */
function isLeapYear(year) {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** The value of the two ASCII digits at `i`, or -1. @param {string} s @param {number} i */
function twoDigits(s, i) {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Whether `s` from `at` holds `full-date` (YYYY-MM-DD, a real day) up to `at + 10`. @param {string} s @param {number} at */
function dateAt(s, at) {
  if (s.charCodeAt(at + 4) !== 45 || s.charCodeAt(at + 7) !== 45) return false;
  const high = twoDigits(s, at);
  const low = twoDigits(s, at + 2);
  const month = twoDigits(s, at + 5);
  const day = twoDigits(s, at + 8);
  if (high < 0 || low < 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(high * 100 + low) ? 29 : /** @type {number} */ (DAYS[month]));
}

/** RFC 3339 `full-date`: ajv-formats' full `date`. @param {string} s */
function date(s) {
  return s.length === 10 && dateAt(s, 0);
}

/**
 * RFC 3339 `full-time` from `at` to the end of `s`: ajv-formats' full `time` (its regular expression
 * `^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$`, case-insensitive, then its checks
 * of the numbers), with the time zone required. With `rfc3339`, RFC 3339's own grammar instead: an
 * offset is `+hh:mm` or `-hh:mm`, the hour at most 23 even in a leap second, and the second is its
 * two digits (a long fraction of 59 is not 60).
 * @param {string} s @param {number} at @param {boolean} [rfc3339]
 */
function timeAt(s, at, rfc3339 = false) {
  const end = s.length;
  if (end - at < 9 || s.charCodeAt(at + 2) !== 58 || s.charCodeAt(at + 5) !== 58) return false;
  const hr = twoDigits(s, at);
  const min = twoDigits(s, at + 3);
  const whole = twoDigits(s, at + 6);
  if (hr < 0 || min < 0 || whole < 0) return false;
  let i = at + 8;
  if (s.charCodeAt(i) === 46) {
    // a fraction: at least one digit
    const first = ++i;
    for (let c = s.charCodeAt(i) - 48; c >= 0 && c <= 9; c = s.charCodeAt(i) - 48) i++;
    if (i === first) return false;
  }
  // The seconds as the full check reads them (with a long fraction, 59.999... may round up to 60).
  const sec = i === at + 8 || rfc3339 ? whole : Number(s.slice(at + 6, i));
  const zone = s.charCodeAt(i);
  let tzSign = 1;
  let tzH = 0;
  let tzM = 0;
  if (zone === 90 || zone === 122) {
    // Z or z
    if (i + 1 !== end) return false;
  } else if (zone === 43 || zone === 45) {
    // + or -: two digits, then optionally two more after an optional colon
    tzSign = zone === 45 ? -1 : 1;
    tzH = twoDigits(s, i + 1);
    if (tzH < 0) return false;
    i += 3;
    if (rfc3339) {
      // RFC 3339's time-numoffset: hours, a colon, minutes.
      if (s.charCodeAt(i) !== 58) return false;
      tzM = twoDigits(s, i + 1);
      if (tzM < 0 || i + 3 !== end) return false;
    } else if (i !== end) {
      if (s.charCodeAt(i) === 58) i++;
      tzM = twoDigits(s, i);
      if (tzM < 0 || i + 2 !== end) return false;
    }
  } else return false;
  if (tzH > 23 || tzM > 59) return false;
  if (rfc3339 && hr > 23) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  // a leap second: 23:59:60 in UTC
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

/** RFC 3339 `full-time`: ajv-formats' full `time`. @param {string} s */
function time(s) {
  return timeAt(s, 0);
}

/**
 * Whether a character separates date and time in RFC 3339: `T`, `t`, or a space (its note allows
 * one "for the sake of readability"; ajv-formats takes any white space). @param {number} c
 */
function isSeparator(c) {
  return c === 84 || c === 116 || c === 32;
}

/**
 * RFC 3339 `date-time` (section 5.6): `full-date`, a separator, `full-time` with its offset. A date
 * has exactly ten characters, so the separator is the eleventh.
 * @param {string} s
 */
function dateTime(s) {
  return s.length > 11 && isSeparator(s.charCodeAt(10)) && dateAt(s, 0) && timeAt(s, 11, true);
}

/**
 * The common shape of an absolute URI: `scheme://host[:port]` with a host name of unreserved
 * characters, then a path, a query and a fragment of the characters RFC 3986 allows there (no
 * percent-encoded octet). Each part is the corresponding part of ajv-formats' full `uri` with some
 * of its branches left out, so every string it matches, the full check accepts; a string it does
 * not match is only left to the full check. No nested repetition: linear in the length.
 */
const COMMON_URI =
  /^[a-z][a-z0-9+\-.]*:\/\/[a-z0-9\-._~]*(?::[0-9]*)?(?:\/[a-z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[a-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[a-z0-9\-._~!$&'()*+,;=:@/?]*)?$/i;

/** Whether `s` has the common shape (then the full check accepts it too). @param {string} s */
function commonUri(s) {
  return COMMON_URI.test(s);
}

/** The value of the hexadecimal digit `c` (either case), or -1. @param {number} c */
function hexValue(c) {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Whether `s` from `at` to its end is a dotted IPv4 address as ajv-formats writes one: four
 * numbers of 0 to 255 without leading zeros. @param {string} s @param {number} at
 */
function ipv4At(s, at) {
  let i = at;
  for (let part = 0; part < 4; part++) {
    if (part > 0 && s.charCodeAt(i++) !== 46) return false;
    const first = i;
    let value = 0;
    for (let d = s.charCodeAt(i) - 48; d >= 0 && d <= 9 && i - first < 3; d = s.charCodeAt(i) - 48) {
      value = value * 10 + d;
      i++;
    }
    const digits = i - first;
    if (digits === 0 || value > 255 || (digits > 1 && s.charCodeAt(first) === 48)) return false;
  }
  return i === s.length;
}

/**
 * Whether `s` is an IPv6 address in the text forms of RFC 4291 2.2 that ajv-formats' regular
 * expression accepts: eight groups of one to four hexadecimal digits, or fewer around one "::"
 * that stands for at least one group (seven at most, then), the last two groups possibly written
 * as a dotted IPv4 address; no zone, no brackets. Read once, left to right.
 * @param {string} s
 */
function commonIpv6(s) {
  const end = s.length;
  let groups = 0;
  let compressed = false;
  let i = 0;
  if (s.charCodeAt(0) === 58) {
    // a leading "::"
    if (s.charCodeAt(1) !== 58) return false;
    compressed = true;
    i = 2;
    if (i === end) return true;
  }
  for (;;) {
    // a group, or the dotted IPv4 address that ends the text
    const first = i;
    while (i < end && i - first < 5 && hexValue(s.charCodeAt(i)) >= 0) i++;
    if (s.charCodeAt(i) === 46)
      return groups + 2 <= (compressed ? 7 : 8) && (compressed || groups === 6) && ipv4At(s, first);
    const digits = i - first;
    if (digits === 0 || digits > 4) return false;
    groups++;
    if (i === end) return compressed ? groups <= 7 : groups === 8;
    if (s.charCodeAt(i) !== 58) return false;
    i++;
    if (s.charCodeAt(i) === 58) {
      if (compressed) return false;
      compressed = true;
      i++;
      if (i === end) return groups <= 7;
    }
    if (groups >= 8) return false;
  }
}

// ajv-formats 3.0.1's full `ipv6` and `uri` expressions, as it writes them (MIT License, Copyright
// (c) 2020 Evgeny Poberezkin): copied, so that the validators import no CommonJS package at run
// time. test/validation/formats.test.ts holds every verdict equal to ajv-formats' own checks.

/** ajv-formats' full `ipv6`: one regular expression. */
const fullIpv6 =
  /^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$/i;

/**
 * IPv6: ajv-formats' full `ipv6`, its usual forms decided here. Every branch of its expression
 * holds a ":", so a text without one (an IPv4 address tried against both) is refused at once.
 * @param {string} s
 */
function ipv6(s) {
  if (commonIpv6(s)) return true;
  if (!s.includes(':')) return false;
  return fullIpv6.test(s);
}

/** ajv-formats' full `uri`: a text with a `/` or a `:` that matches this expression. */
const FULL_URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;
/** @param {string} s */
const fullUri = (s) => /\/|:/.test(s) && FULL_URI.test(s);

/** RFC 3986 `URI`: ajv-formats' full `uri`, its common shape decided here. @param {string} s */
function uri(s) {
  if (commonUri(s)) return true;
  return fullUri(s);
}

/** Orders two dates or times as ajv-formats does (for formatMinimum and the like). @param {string} a @param {string} b */
function compareStrings(a, b) {
  if (!(a && b)) return undefined;
  return a > b ? 1 : a < b ? -1 : 0;
}

/** @param {string} a @param {string} b */
function compareTimes(a, b) {
  if (!(a && b)) return undefined;
  const t1 = new Date(`2020-01-01T${a}`).valueOf();
  const t2 = new Date(`2020-01-01T${b}`).valueOf();
  if (!(t1 && t2)) return undefined;
  return t1 - t2;
}

/** @param {string} a @param {string} b */
function compareDateTimes(a, b) {
  if (!(a && b)) return undefined;
  const d1 = new Date(a).valueOf();
  const d2 = new Date(b).valueOf();
  if (!(d1 && d2)) return undefined;
  return d1 - d2;
}

/** The formats, as AJV's `addFormat` takes them. */
const exactFormats = {
  date: { validate: date, compare: compareStrings },
  time: { validate: time, compare: compareTimes },
  'date-time': { validate: dateTime, compare: compareDateTimes },
  uri,
  ipv6,
};

/**
 * The number of characters (code points) of a string, as `minLength` and `maxLength` count them:
 * AJV's own `ucs2length`, here so that a validator loads one file beside itself.
 * @param {string} str
 */
function characterCount(str) {
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    // a high surrogate followed by a low one is one character
    if (value >= 0xd800 && value <= 0xdbff && pos < len && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}

/** A pattern that allows any text of one character or more but for the characters of some ranges: `^[^\u0000-\u001F...]+$`. */
const EXCLUDING = /^\^\[\^((?:\\u[0-9A-Fa-f]{4}(?:-\\u[0-9A-Fa-f]{4})?)+)\]\+\$$/;

/**
 * The ranges a pattern of the form `^[^...]+$` leaves out, each `[first, last]`, or null for any
 * other pattern and for ranges that reach surrogates (where the `u` flag, reading code points, and a
 * loop over UTF-16 units would differ).
 * @param {string} pattern @returns {[number, number][] | null}
 */
function excludedRanges(pattern) {
  const match = EXCLUDING.exec(pattern);
  if (!match) return null;
  /** @type {[number, number][]} */
  const ranges = [];
  for (const [, first = '', last] of (match[1] ?? '').matchAll(/\\u([0-9A-Fa-f]{4})(?:-\\u([0-9A-Fa-f]{4}))?/g))
    ranges.push([Number.parseInt(first, 16), Number.parseInt(last ?? first, 16)]);
  return ranges.every(([first, last]) => first <= last && (last < 0xd800 || first > 0xdfff)) ? ranges : null;
}

/**
 * A pattern's matcher, as AJV's `code.regExp` makes one (`test` and `toString`): a pattern of the
 * form `^[^...]+$` (the contract's printable text: no control or invisible formatting characters)
 * as a loop over the text's characters, any other as a RegExp. Kept for a benchmark target
 * (bench/validation.mjs: a valid createSubscription request in at most 0.5x JSON.parse of its
 * text): the pattern runs on most text fields of a request, and V8's expression for a class of
 * fifteen ranges took about 30 ns a value where the loop takes a few; test/validation/patterns.test.ts
 * holds the loop to the RegExp on generated text.
 * @param {string} pattern @param {string} flags
 */
function patternRegExp(pattern, flags) {
  const ranges = excludedRanges(pattern);
  if (!ranges) return new RegExp(pattern, flags);
  // Printable ASCII is allowed whole when no range reaches into it: most characters of a value.
  const ascii = ranges.every(([first, last]) => last < 0x20 || first > 0x7e);
  return {
    /** @param {string} text */
    test(text) {
      if (text.length === 0) return false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (ascii && c >= 0x20 && c <= 0x7e) continue;
        for (const [first, last] of ranges) if (c >= first && c <= last) return false;
      }
      return true;
    },
    toString: () => `/${pattern}/${flags}`,
  };
}

export { COMMON_URI, characterCount, commonIpv6, commonUri, exactFormats, patternRegExp };
