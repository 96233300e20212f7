// How much one validation describes, in a module of its own: a run of many payloads bounds what it
// keeps by it without loading the wording of problems.

/** At most this many issues are described; a payload with more gets one closing issue that counts them. */
export const MAX_ISSUES = 100;
