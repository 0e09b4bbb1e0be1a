/** What filing a brief is called at each door, and the scope it needs: named once. */
export const briefToolName = "submit_project_brief";
export const briefToolScope = "svc:brief";
