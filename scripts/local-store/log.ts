import { closeSync, fdatasync, ftruncateSync, openSync, writeSync } from "node:fs";
import { entryProblem, readIfPresent, UnreadableSnapshotError, type SavedKey } from "./snapshot.ts";

const format = "frontdoor-local-store-log/1";

/** A key a write deleted, emptied, or left expired. */
export interface Tombstone {
  key: string;
  deleted: true;
}

/** The effect of one acknowledged write: the image of every key it touched, as the snapshot would save it. */
export interface LogRecord {
  keys: (SavedKey | Tombstone)[];
}

export interface ReadLog {
  /** The snapshot generation the records apply to; undefined when not even the first line is whole. */
  generation: number | undefined;
  records: LogRecord[];
  /** The last line was incomplete (a process stopped while writing it) and was left out. */
  torn: boolean;
}

/** The log file of a snapshot file: store.json's is store.log. */
export const logFileOf = (snapshotFile: string) => snapshotFile.replace(/(\.json)?$/, ".log");

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function recordProblem(record: unknown): string | undefined {
  if (!isObject(record) || !Array.isArray(record.keys)) return `it is not an object with a list of "keys"`;
  for (const [index, entry] of record.keys.entries()) {
    const problem = isObject(entry) && "deleted" in entry ? tombstoneProblem(entry) : entryProblem(entry);
    if (problem) return `keys[${index}]: ${problem}`;
  }
  return undefined;
}

const tombstoneProblem = ({ key, deleted }: Record<string, unknown>) =>
  typeof key !== "string" ? "its key is not a string" : deleted !== true ? `its "deleted" is not true` : undefined;

function parseLine(line: string, number: number, file: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new UnreadableSnapshotError(file, `line ${number} is not JSON (${(error as Error).message})`, "log");
  }
}

/**
 * The log in `file`, checked whole, or undefined when there is none. Every line but an incomplete last one must be
 * whole: a damaged line before the end is an unreadable log (UnreadableSnapshotError), since the writes after it were
 * acknowledged and cannot be put back without it.
 */
export async function readLog(file: string): Promise<ReadLog | undefined> {
  const text = await readIfPresent(file, "log");
  if (text === undefined) return undefined;
  const lines = text.split("\n");
  const torn = lines.pop() !== "";
  if (lines.length === 0) return { generation: undefined, records: [], torn };
  const header = parseLine(lines[0]!, 1, file);
  if (!isObject(header) || header.format !== format || !Number.isSafeInteger(header.generation))
    throw new UnreadableSnapshotError(file, `its first line is not {"format": "${format}", "generation": <a whole number>}`, "log");
  const records = lines.slice(1).map((line, index) => {
    const record = parseLine(line, index + 2, file);
    const problem = recordProblem(record);
    if (problem) throw new UnreadableSnapshotError(file, `line ${index + 2}: ${problem}`, "log");
    return record as LogRecord;
  });
  return { generation: header.generation as number, records, torn };
}

/**
 * The log being written: one JSON line per record, each on its way to the disk when append() returns (a crash of the
 * process loses nothing appended). The disk itself is flushed within a second of a record, in the background: a power
 * loss can cost the last second of writes.
 */
export class LogWriter {
  readonly #fd: number;
  #bytes = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #failure: Error | undefined;

  constructor(file: string, generation: number) {
    this.#fd = openSync(file, "w");
    this.reset(generation);
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Why the log takes no record until the next reset, if it does not. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  append(record: LogRecord): void {
    if (this.#failure) throw new Error(`the local store's log cannot be written: ${this.#failure.message}`);
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    try {
      this.#writeAt(this.#bytes, line);
    } catch (error) {
      // A line written in part (a full disk) is taken back, so that the records after it stay readable.
      try {
        ftruncateSync(this.#fd, this.#bytes);
      } catch {
        this.#failure = error as Error;
      }
      throw error;
    }
    this.#bytes += line.length;
    this.#flushTimer ??= setTimeout(() => {
      this.#flushTimer = undefined;
      this.#flushing = new Promise((done) => fdatasync(this.#fd, () => done()));
    }, 1000).unref();
  }

  /** Empties the log for the records that follow the snapshot of `generation`. */
  reset(generation: number): void {
    const header = Buffer.from(`${JSON.stringify({ format, generation })}\n`);
    try {
      ftruncateSync(this.#fd, 0);
      this.#writeAt(0, header);
    } catch (error) {
      this.#failure = error as Error;
      throw error;
    }
    this.#bytes = header.length;
    this.#failure = undefined;
  }

  async close(): Promise<void> {
    clearTimeout(this.#flushTimer);
    await this.#flushing;
    closeSync(this.#fd);
  }

  #writeAt(position: number, buffer: Buffer): void {
    for (let done = 0; done < buffer.length;) done += writeSync(this.#fd, buffer, done, buffer.length - done, position + done);
  }
}
