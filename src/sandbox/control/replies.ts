// The control API's answers: an HTTP status and a plain JSON body. Errors are {error: {code,
// message}} with a 4xx status; `ok` tells them apart for startSandbox()'s programmatic calls (it is not sent).
import { type Problem, problem } from '../http.js';

export interface ControlSuccess<T> {
  readonly ok: true;
  readonly status: number;
  readonly body: T;
}

export interface ControlFailure {
  readonly ok: false;
  readonly status: number;
  readonly body: Problem;
}

export type ControlAnswer<T = unknown> = ControlSuccess<T> | ControlFailure;

export const reply = <T>(status: number, body: T): ControlSuccess<T> => ({ ok: true, status, body });

export const refuse = (
  status: number,
  code: string,
  message: string,
  extra?: Record<string, unknown>,
): ControlFailure => ({
  ok: false,
  status,
  body: problem(code, message, extra),
});

export const badRequest = (message: string, pointer?: string): ControlFailure =>
  refuse(400, 'invalid-request', message, pointer ? { pointer } : {});

export const notFound = (what: string): ControlFailure =>
  refuse(404, 'not-found', `${what} is not known to the sandbox (POST /sandbox/reset clears everything).`);
