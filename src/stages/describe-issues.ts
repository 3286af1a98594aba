import type { z } from "zod";

/** One line naming each failing path and what was wrong there, e.g. `seat.seat_index: expected number, received string`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], max = 5): string {
  const parts = issues.slice(0, max).map((issue) => {
    const path = issue.path.length === 0 ? "(record)" : issue.path.map(String).join(".");
    return `${path}: ${issue.message}`;
  });
  if (issues.length > max) parts.push(`and ${issues.length - max} more`);
  return parts.join("; ");
}
