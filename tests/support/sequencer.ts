import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that spend their time waiting, not computing, run first in their project. npm test runs the runtime project
 * beside the in-process ones: a wait at the start leaves both cores to them, where at the end it would be the suite's
 * idle tail. netlify-dev-starved holds netlify dev stopped for lambda-local's 30 s.
 */
const waitingFiles = ["tests/runtime/netlify-dev-starved.test.ts"];

const waits = (file: TestSpecification) => waitingFiles.some((path) => file.moduleId.endsWith(path));

export class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))];
  }
}
