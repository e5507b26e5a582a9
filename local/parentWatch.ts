/**
 * Calls `onGone` once this process's parent has exited. When a parent is killed (`kill -9` of
 * `npm start`'s npm, a closed terminal), its children are re-parented and nothing tells them; the
 * local runtime then kept its ports and the next start failed with EADDRINUSE. Linux has no
 * portable "die with the parent" for Node, so the parent id is checked: it changes exactly then.
 * The timer does not keep the process alive.
 */
export const watchParent = (onGone: () => void, intervalMs = 500): (() => void) => {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
