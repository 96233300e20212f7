// The version rules of the contract (DECISIONS.md, D-44): `info.version` is semantic versioning
// and equals the package version; against the released baseline, a breaking change needs the next
// major version, a notable one at least the next minor, documentation at least the next patch,
// and no change no bump.

/** @typedef {'major' | 'minor' | 'patch' | 'none'} Bump */

const RANK = /** @type {const} */ ({ none: 0, patch: 1, minor: 2, major: 3 });

/** `1.2.3` -> [1, 2, 3]; null for anything else (no pre-release or build parts). @param {unknown} text */
export function parseVersion(text) {
  const match = typeof text === 'string' ? /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text) : null;
  return match ? /** @type {[number, number, number]} */ ([Number(match[1]), Number(match[2]), Number(match[3])]) : null;
}

/** The three versions that may follow a released one. @param {string} released */
export function nextVersions(released) {
  const v = parseVersion(released);
  if (!v) return null;
  const [major, minor, patch] = v;
  return { major: `${major + 1}.0.0`, minor: `${major}.${minor + 1}.0`, patch: `${major}.${minor}.${patch + 1}` };
}

/**
 * The bump from the released version to the working one: `none`, `major`, `minor`, `patch`, or
 * null when the working version is none of the three next versions (lower, skipped, not reset).
 * @param {string} released @param {string} working @returns {Bump | null}
 */
export function bumpBetween(released, working) {
  if (released === working) return 'none';
  const next = nextVersions(released);
  if (!next) return null;
  if (working === next.major) return 'major';
  if (working === next.minor) return 'minor';
  if (working === next.patch) return 'patch';
  return null;
}

/**
 * The verdict on the versions.
 * @param {object} input
 * @param {string | null} input.released the baseline's `info.version` (null: no baseline)
 * @param {unknown} input.working `info.version` of openapi/openapi.yaml
 * @param {unknown} input.packageVersion `version` of package.json
 * @param {Bump} input.required the bump the changes need
 * @returns {{ ok: boolean, bump: Bump | null, problems: string[], notes: string[] }}
 */
export function judgeVersions({ released, working, packageVersion, required }) {
  const quoted = (/** @type {unknown} */ v) => (JSON.stringify(v) ?? String(v)).slice(0, 40);
  /** @type {string[]} */
  const problems = [];
  /** @type {string[]} */
  const notes = [];
  const workingText = String(working).slice(0, 40);
  if (!parseVersion(working)) problems.push(`info.version ${quoted(working)} of openapi/openapi.yaml is not a version MAJOR.MINOR.PATCH`);
  if (packageVersion !== working)
    problems.push(`package.json has version ${quoted(packageVersion)} but openapi/openapi.yaml has info.version ${quoted(working)}: the two must be equal`);
  if (released === null) {
    problems.push('no released contract (openapi/released/openapi.json): run `npm run release:contract` to record the first release');
    return { ok: false, bump: null, problems, notes };
  }
  const bump = parseVersion(working) ? bumpBetween(released, workingText) : null;
  const next = nextVersions(released);
  const options = next ? `${next.major} (major), ${next.minor} (minor) or ${next.patch} (patch)` : 'a next version';
  const needed = next && required !== 'none' ? next[required] : null;
  if (parseVersion(working) && bump === null) {
    problems.push(`info.version ${workingText} does not follow the released ${released}: use ${options}`);
  } else if (bump !== null) {
    if (required === 'none' && bump !== 'none') {
      problems.push(`info.version is ${workingText} but the contract has not changed since ${released}: no change, no bump (set it back to ${released})`);
    } else if (required !== 'none' && bump === 'none') {
      problems.push(
        `the contract changed since ${released} but info.version is still ${released}: ${describe(required)}; bump it to ${needed}${required === 'major' ? '' : ' or higher'} (openapi/openapi.yaml and package.json)`,
      );
    } else if (RANK[bump] < RANK[required]) {
      problems.push(`info.version ${workingText} is a ${bump} bump, but ${describe(required)}: use ${needed}`);
    } else if (bump !== 'none') {
      notes.push(`${workingText} is not released yet: run \`npm run release:contract\` to record it as the baseline and add its CHANGELOG section`);
    }
  }
  return { ok: problems.length === 0, bump, problems, notes };
}

/** @param {Bump} required */
function describe(required) {
  if (required === 'major') return 'a breaking change needs a major version';
  if (required === 'minor') return 'a notable change needs at least a minor version';
  return 'a documentation change needs at least a patch version';
}
