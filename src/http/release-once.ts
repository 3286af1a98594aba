/** `release` as a function that acts once however often it is called: a held slot may be freed by more than one path. */
export function releaseOnce(release: () => void): () => void {
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    release();
  };
}
