/** A content problem that the schemas cannot see on their own, reported like a schema error. */
export class ContentError extends Error {
  constructor(file: string, field: string, problem: string) {
    super(`${file}: ${field}: ${problem}`);
    this.name = "ContentError";
  }
}
