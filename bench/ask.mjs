// Questions to a benchmark's server in a child process, over its IPC channel: the answer is the
// first message that carries the key asked for.
/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

/** A function that sends `question` to the child and resolves with the `key` of its answer. @param {ChildProcess} child */
export function asker(child) {
  /** @param {unknown} question @param {string} key @returns {Promise<any>} */
  return (question, key) =>
    new Promise((resolve) => {
      const listen = (/** @type {any} */ m) => {
        if (m && key in m) {
          child.off('message', listen);
          resolve(m[key]);
        }
      };
      child.on('message', listen);
      child.send(/** @type {any} */ (question));
    });
}
