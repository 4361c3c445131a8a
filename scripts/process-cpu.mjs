// A process's CPU time from /proc (Linux), for the scripts that measure the server's cost per
// request (npm run bench, npm run soak; issue 33).
import { readFileSync } from "node:fs";

/** /proc counts CPU time in USER_HZ, 100 per second on Linux. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds `pid` has used, user and system, all its threads: `own`, and `exitedChildren` for
 * what its children that exited and were waited for used (a cluster's workers that ended).
 */
export function processCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields 14 to 17 of proc(5) (utime, stime, cutime, cstime), counted here from field 3 (the
  // state), which follows the command's name in parentheses (a name may hold spaces).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    own: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    exitedChildren: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
  };
}
