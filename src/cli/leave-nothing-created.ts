import { outputLocation } from "../output/output-location.js";
import { missingFolders, removeCreatedFolders } from "./created-folders.js";

/**
 * Runs `work` writing to `out`; when it fails (or `always`, for a dry run), removes the local folders it created
 * on the way to `out` that stayed empty. Standard output and S3 create no folders.
 */
export async function leaveNothingCreated<T>(out: string | undefined, work: () => Promise<T>, o: { readonly always?: boolean } = {}): Promise<T> {
  const local = out !== undefined && outputLocation(out).kind === "local";
  const created = local ? await missingFolders(out) : [];
  try {
    const result = await work();
    if (o.always === true) await removeCreatedFolders(created);
    return result;
  } catch (error) {
    await removeCreatedFolders(created);
    throw error;
  }
}
