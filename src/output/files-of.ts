import type { Files } from "./storage.js";

/** The {@link Files} methods of `files` as an object's own: a staging is its files and its publish. */
export function filesOf(files: Files): Files {
  return {
    location: files.location,
    create: (path) => files.create(path),
    read: (path) => files.read(path),
    list: (prefix) => files.list(prefix),
    rename: (from, to) => files.rename(from, to),
    remove: (path) => files.remove(path),
  };
}
