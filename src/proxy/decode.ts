// The bytes of a compressed answer, decoded for the checks only (the client receives them as they
// came): gzip, deflate and br, each layer bounded by the same limit as the answer itself, so that
// a compression bomb stops at the limit instead of filling memory (docs/decisions.md, D-108).
import { brotliDecompress, gunzip, type InputType, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';

export type Decoded =
  | { ok: true; bytes: Buffer }
  | { ok: false; rule: 'upstream-too-large' | 'upstream-encoding'; message: string };

type Decoder = (bytes: InputType, options: ZlibOptions, done: (error: Error | null, result: Buffer) => void) => void;

/** HTTP's deflate is zlib-wrapped; some servers send the raw stream: both are read. */
const inflateEither: Decoder = (bytes, options, done) =>
  inflate(bytes, options, (error, result) => {
    if (error && (error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') inflateRaw(bytes, options, done);
    else done(error, result);
  });

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate: inflateEither,
  br: brotliDecompress,
};

/** More layers than this are not decoded (each could multiply the work). */
const MAX_LAYERS = 2;

/** The codings of a content-encoding header, in the order they were applied (identity left out). */
export function codingsOf(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The decoded bytes of an answer with the content-encoding `header`, at most `maxBytes` after each
 * layer. Without a coding, the bytes themselves, at once: plain answers pay nothing.
 */
export function decodeAnswer(
  bytes: Buffer,
  header: string | string[] | undefined,
  maxBytes: number,
  done: (decoded: Decoded) => void,
): void {
  const codings = codingsOf(header);
  if (codings.length === 0) {
    done({ ok: true, bytes });
    return;
  }
  if (codings.length > MAX_LAYERS || codings.some((c) => !Object.hasOwn(DECODERS, c))) {
    done({
      ok: false,
      rule: 'upstream-encoding',
      message: "The upstream's answer has a content-encoding the proxy does not decode (gzip, deflate, br).",
    });
    return;
  }
  // The last coding applied is the first one undone.
  const layers = [...codings].reverse();
  const step = (input: Buffer, i: number) => {
    const coding = layers[i];
    if (coding === undefined) {
      done({ ok: true, bytes: input });
      return;
    }
    (DECODERS[coding] as Decoder)(input, { maxOutputLength: maxBytes }, (error, output) => {
      if (!error) step(output, i + 1);
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        done({
          ok: false,
          rule: 'upstream-too-large',
          message: `The upstream's answer decodes to more than ${maxBytes} bytes.`,
        });
      else
        done({
          ok: false,
          rule: 'upstream-encoding',
          message: `The upstream's answer does not decode as its content-encoding says (${coding}).`,
        });
    });
  };
  step(bytes, 0);
}
