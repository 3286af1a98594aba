import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { columnPlan } from "../../src/parquet/column-plan.js";
import type { ColumnPlan } from "../../src/parquet/column-plan.js";
import { encodeRowGroup } from "../../src/parquet/encode-row-group.js";
import { RowGroupBuilder } from "../../src/parquet/row-group-builder.js";
import { shredRecord } from "../../src/parquet/shred-record.js";
import type { Field } from "../../src/schema/column-type.js";
import { EVERY_KIND, columnsArb, recordArb } from "./helpers/column-arbitraries.js";

type Row = Record<string, unknown>;

const build = (plan: ColumnPlan, records: readonly Row[], builder = new RowGroupBuilder(plan)): RowGroupBuilder => {
  for (const r of records) {
    builder.beginRow();
    shredRecord(plan, r, builder.leaves);
  }
  return builder;
};
/** The row group's bytes and metadata, uncompressed so equal content means equal bytes. */
const encoded = (builder: RowGroupBuilder) => encodeRowGroup(builder, { codec: "none", pageBytes: 64 });

/** Columns, records of them, and a flag per record. */
const casesArb: fc.Arbitrary<[readonly Field[], Row[], boolean[]]> = fc.oneof(columnsArb, fc.constant(EVERY_KIND)).chain((columns) =>
  fc
    .array(recordArb(columns), { maxLength: 20 })
    .chain((records) => fc.tuple(fc.constant(columns), fc.constant(records), fc.array(fc.boolean(), { minLength: records.length, maxLength: records.length }))),
);

describe("a row is begun, then kept or discarded", () => {
  it("counts rows and approximate bytes, and clear() starts over with the same result as a new builder", () => {
    const plan = columnPlan(EVERY_KIND);
    const records: Row[] = [{ s: "abc", i: 1, strs: ["x", "y"] }, {}, { m: { k: ["v"] } }];
    const builder = build(plan, records);
    expect(builder.rows).toBe(3);
    expect(builder.bytes).toBeGreaterThan(20);
    builder.clear();
    expect([builder.rows, builder.bytes]).toEqual([0, 0]);
    expect(encoded(build(plan, records, builder))).toEqual(encoded(build(plan, records)));
  });

  it("discardRow() removes a half-shredded row without a trace", () => {
    fc.assert(
      fc.property(
        casesArb,
        ([columns, records, discard]) => {
          const plan = columnPlan(columns);
          const builder = new RowGroupBuilder(plan);
          records.forEach((r, i) => {
            builder.beginRow();
            if (discard[i]) {
              // As a parser that gives up half-way: some leaves written, then the row is dropped.
              builder.leaves.slice(0, Math.ceil(plan.leaves.length / 2)).forEach((w) => w.missing(0, 0));
              shredRecord(plan, r, builder.leaves);
              builder.discardRow();
            } else {
              shredRecord(plan, r, builder.leaves);
            }
          });
          expect(encoded(builder)).toEqual(encoded(build(plan, records.filter((_, i) => !discard[i]))));
        },
      ),
    );
  });

  it("only the last row can be discarded, once", () => {
    const builder = build(columnPlan(EVERY_KIND), [{ s: "a" }]);
    builder.discardRow();
    expect(() => builder.discardRow()).toThrow(/without a row begun/);
    builder.beginRow();
    builder.retain(() => true);
    expect(() => builder.discardRow()).toThrow(/without a row begun/);
  });
});

describe("retain() removes rows after the fact", () => {
  it("leaves exactly what building only the kept rows gives", () => {
    fc.assert(
      fc.property(
        casesArb,
        ([columns, records, keep]) => {
          const plan = columnPlan(columns);
          const builder = build(plan, records);
          const removed = builder.retain((row) => keep[row] === true);
          expect(removed).toBe(keep.filter((k) => !k).length);
          expect(builder.rows).toBe(records.length - removed);
          expect(encoded(builder)).toEqual(encoded(build(plan, records.filter((_, i) => keep[i]))));
          // The builder goes on taking rows after a retain.
          const more = records.slice(0, 2);
          build(plan, more, builder);
          expect(encoded(builder)).toEqual(encoded(build(plan, [...records.filter((_, i) => keep[i]), ...more])));
        },
      ),
    );
  });

  it("asks about each row once, in order", () => {
    const builder = build(columnPlan(EVERY_KIND), [{}, {}, {}]);
    const asked: number[] = [];
    builder.retain((row) => {
      asked.push(row);
      return row !== 1;
    });
    expect(asked).toEqual([0, 1, 2]);
    expect(builder.rows).toBe(2);
  });
});

describe("moveLastRowTo() moves the row begun last to another builder", () => {
  // A split run's worker writes each row into its split's row group when the walk reads the group key first;
  // a row it cannot route so is written into the home split's and moved (docs/decisions.md).
  it("leaves each builder with exactly what building its rows into it gives", () => {
    fc.assert(
      fc.property(casesArb, ([columns, records, moved]) => {
        const plan = columnPlan(columns);
        const home = new RowGroupBuilder(plan);
        const other = build(plan, records.slice(0, 1));
        for (const [i, r] of records.entries()) {
          home.beginRow();
          shredRecord(plan, r, home.leaves);
          if (moved[i] === true) home.moveLastRowTo(other);
        }
        expect(home.rows + other.rows).toBe(records.length + Math.min(1, records.length));
        expect(encoded(home)).toEqual(encoded(build(plan, records.filter((_, i) => moved[i] !== true))));
        expect(encoded(other)).toEqual(encoded(build(plan, [...records.slice(0, 1), ...records.filter((_, i) => moved[i] === true)])));
        // The moved row is the target's last, begun: it can be discarded there, and nothing is left open here.
        if (moved.at(-1) === true) {
          expect(() => home.moveLastRowTo(other)).toThrow(/without a row begun/);
          other.discardRow();
          expect(other.rows).toBe(Math.min(1, records.length) + moved.filter((m) => m).length - 1);
        }
      }),
    );
  });
});

describe("a builder's first rows, or a builder sized like another", () => {
  it("withFirstRows() shows what building the first rows alone gives, then every row again, as they were", () => {
    fc.assert(
      fc.property(casesArb, fc.nat(), ([columns, records], a) => {
        const plan = columnPlan(columns);
        const builder = build(plan, records);
        const before = encoded(builder);
        const rows = a % (records.length + 1);
        const first = builder.withFirstRows(rows, (b) => {
          expect(b.rows).toBe(rows);
          return encoded(b);
        });
        expect(first).toEqual(encoded(build(plan, records.slice(0, rows))));
        expect(builder.rows).toBe(records.length);
        expect(encoded(builder)).toEqual(before);
        // The rest, once the first rows are dropped: what a unit cut across shards encodes next.
        builder.retain((row) => row >= rows);
        expect(encoded(builder)).toEqual(encoded(build(plan, records.slice(rows))));
      }),
    );
  });

  it("withFirstRows() refuses more rows than the builder holds, and shows them all again after a throw", () => {
    const plan = columnPlan(EVERY_KIND);
    const builder = build(plan, [{ s: "a", strs: ["x"] }, { s: "b" }]);
    const before = encoded(builder);
    expect(() => builder.withFirstRows(3, () => 0)).toThrow(/3 first rows of a row group of 2/);
    expect(() =>
      builder.withFirstRows(1, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(encoded(builder)).toEqual(before);
  });

  it("a builder sized like a full one starts with its room and takes the same rows to the same bytes", () => {
    fc.assert(
      fc.property(casesArb, ([columns, records]) => {
        const plan = columnPlan(columns);
        const full = build(plan, [...records, ...records, ...records]);
        const sized = new RowGroupBuilder(plan, full);
        sized.columns.forEach((c, i) => {
          const like = full.columns[i] as (typeof full.columns)[number];
          expect([c.levelCapacity, c.values.length]).toEqual([like.levelCapacity, like.values.length]);
        });
        expect(encoded(build(plan, records, sized))).toEqual(encoded(build(plan, records)));
      }),
    );
  });
});
