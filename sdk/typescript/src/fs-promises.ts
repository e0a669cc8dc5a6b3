// `fs/promises` (and `node:fs/promises`, which the build maps here): the
// file API as promises. See `fs.ts`.
import { promises } from './fs.js';

export const { readFile, writeFile, appendFile, copyFile, readdir, stat, lstat, access, mkdir, rm, unlink, rmdir, rename } = promises;
export { constants } from './fs.js';
export default promises;
