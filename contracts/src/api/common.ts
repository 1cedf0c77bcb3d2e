import { Type, type Static, type StringOptions } from '@sinclair/typebox';

/** Every 4xx/5xx body. `message` is what a person may read (Spanish where the spec shows it). */
export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const Uuid = Type.String({ format: 'uuid' });
export const IsoDate = Type.String({ format: 'date-time' });

/**
 * One character of free text: anything but a control character (C0, DEL, C1: PostgreSQL refuses
 * NUL, the rest has no business in a name or a URL) or half of a surrogate pair (not encodable as
 * UTF-8). Valid with and without the regex `u` flag: a pair is one code point with it, two units without.
 */
const SAFE_CHAR = '(?:[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])';
export const SAFE_TEXT_PATTERN = `^${SAFE_CHAR}*$`;
/** SAFE_TEXT_PATTERN that also allows tab, line feed and carriage return (posts, comments, bios). */
const SAFE_MULTILINE_CHAR = '(?:[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])';
export const SAFE_MULTILINE_PATTERN = `^${SAFE_MULTILINE_CHAR}*$`;
/** SAFE_TEXT_PATTERN for a path of this site: starts with `/`. */
export const SAFE_PATH_PATTERN = `^/${SAFE_CHAR}*$`;

/** What a validation error says when a value breaks one of the patterns above. */
export const SAFE_TEXT_MESSAGES: Record<string, string> = {
  [SAFE_TEXT_PATTERN]: 'must not contain control characters or invalid Unicode',
  [SAFE_PATH_PATTERN]: 'must start with / and not contain control characters or invalid Unicode',
  [SAFE_MULTILINE_PATTERN]: 'must not contain control characters (other than line breaks and tabs) or invalid Unicode',
};

/** A string from a client that is stored or shown: no control characters, no lone surrogates. */
export const SafeText = (options: Omit<StringOptions, 'pattern'> = {}) => Type.String({ ...options, pattern: SAFE_TEXT_PATTERN });

/** SafeText allowing line breaks and tabs: the text of posts and comments. */
export const SafeMultilineText = (options: Omit<StringOptions, 'pattern'> = {}) => Type.String({ ...options, pattern: SAFE_MULTILINE_PATTERN });
