// `gateway-contract/inputs`: the records of a run read from files (Node): JSON files, directories
// and glob patterns, NDJSON files or standard input, HAR recordings. harRecords and ndjsonRecords
// read text and streams already in hand (also in the package's root).

export type { FileRecordOptions } from './files.js';
export { fileRecords } from './files.js';
export type { ExpandedPaths, ExpandOptions } from './glob.js';
export { expandPaths } from './glob.js';
export type { HarOptions } from './har.js';
export { harRecords } from './har.js';
export { harFileRecords } from './harFile.js';
export type { NdjsonOptions } from './ndjson.js';
export { ndjsonRecords } from './ndjson.js';
export { ndjsonFileRecords } from './ndjsonFile.js';
