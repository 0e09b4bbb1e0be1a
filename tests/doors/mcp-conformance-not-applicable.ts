/**
 * The one list of MCP conformance checks that cannot pass against /mcp, by revision and scenario, each with the reason
 * (tests/doors/mcp-conformance.test.ts; docs/decisions.md, "MCP conformance"). Every other check of every required and
 * not-scored server scenario must pass, and a listed check that passes fails the test too, so the list cannot go stale.
 *
 * The one reason a check may be here: it calls the suite's own diagnostic or fixture tools, resources or prompts
 * (`test_simple_text`, `test://static-text`, `test_prompt_with_arguments`, ...), which only its reference server has: a
 * server with tools of its own cannot have them.
 */
export interface NotApplicable {
  checks: string[];
  /** Which fixture the checks call, and what that means here. */
  reason: string;
}

/** A scenario whose every own check calls a fixture: its check of the same name (the suite's wire-schema check passes). */
const fixture = (check: string, reason: string): NotApplicable[] => [{ checks: [check], reason }];

/** Scenarios of both revisions that call the reference server's fixtures, with the check that fails for it. */
const fixturesOfBoth: Record<string, NotApplicable[]> = {
  "completion-complete": fixture(
    "completion-complete",
    "completes an argument of the fixture prompt `test_prompt_with_arguments` (and /mcp offers no completions)",
  ),
  "tools-call-simple-text": fixture("tools-call-simple-text", "calls the fixture tool `test_simple_text`"),
  "tools-call-image": fixture("tools-call-image", "calls the fixture tool `test_image_content`"),
  "tools-call-audio": fixture("tools-call-audio", "calls the fixture tool `test_audio_content`"),
  "tools-call-embedded-resource": fixture("tools-call-embedded-resource", "calls the fixture tool `test_embedded_resource`"),
  "tools-call-mixed-content": fixture("tools-call-mixed-content", "calls the fixture tool `test_multiple_content_types`"),
  "tools-call-error": fixture("tools-call-error", "calls the fixture tool `test_error_handling`"),
  "tools-call-with-progress": fixture("tools-call-with-progress", "calls the fixture tool `test_tool_with_progress`"),
  "resources-read-text": fixture("resources-read-text", "reads the fixture resource `test://static-text`"),
  "resources-read-binary": fixture("resources-read-binary", "reads the fixture resource `test://static-binary`"),
  "resources-templates-read": fixture("resources-templates-read", "reads the fixture template `test://template/{id}/data`"),
  "prompts-get-simple": fixture("prompts-get-simple", "gets the fixture prompt `test_simple_prompt`"),
  "prompts-get-with-args": fixture("prompts-get-with-args", "gets the fixture prompt `test_prompt_with_arguments`"),
  "prompts-get-embedded-resource": fixture("prompts-get-embedded-resource", "gets the fixture prompt `test_prompt_with_embedded_resource`"),
  "prompts-get-with-image": fixture("prompts-get-with-image", "gets the fixture prompt `test_prompt_with_image`"),
  "json-schema-2020-12": fixture(
    "json-schema-2020-12-tool-found",
    "looks for the fixture tool `json_schema_2020_12_tool` and checks its schema",
  ),
};

export const notApplicable: Record<string, Record<string, NotApplicable[]>> = {
  "2025-11-25": {
    ...fixturesOfBoth,
    "tools-call-with-logging": fixture("tools-call-with-logging", "calls the fixture tool `test_tool_with_logging`"),
    "tools-call-sampling": fixture("tools-call-sampling", "calls the fixture tool `test_sampling`"),
    "tools-call-elicitation": fixture("tools-call-elicitation", "calls the fixture tool `test_elicitation`"),
    "elicitation-sep1034-defaults": fixture("elicitation-sep1034-general", "calls the fixture tool `test_elicitation_sep1034_defaults`"),
    "elicitation-sep1330-enums": fixture("elicitation-sep1330-general", "calls the fixture tool `test_elicitation_sep1330_enums`"),
    "resources-subscribe": fixture(
      "resources-subscribe",
      "subscribes to the fixture resource `test://watched-resource` (and /mcp offers no subscriptions)",
    ),
    "resources-unsubscribe": fixture(
      "resources-unsubscribe",
      "unsubscribes from the fixture resource `test://watched-resource` (and /mcp offers no subscriptions)",
    ),
    "server-sse-polling": [
      {
        checks: ["outgoing-request", "incoming-response", "server-sse-content-type"],
        reason:
          "calls the fixture tool `test_reconnection`, which closes its event stream mid-call; /mcp answers the unknown tool in JSON, so the checks only report",
      },
    ],
  },
  "2026-07-28": {
    ...fixturesOfBoth,
    "server-stateless": [
      {
        checks: ["sep-2575-server-rejects-undeclared-capability", "sep-2575-missing-capability-http-400"],
        reason: "calls the diagnostic tool `test_missing_capability` (reported as not testable)",
      },
      {
        checks: ["sep-2575-http-server-no-independent-requests-on-stream"],
        reason: "calls the diagnostic tool `test_streaming_elicitation` (reported as not testable)",
      },
      {
        checks: ["sep-2575-server-no-log-without-loglevel"],
        reason: "calls the diagnostic tool `test_logging_tool` (reported as not testable)",
      },
    ],
    "input-required-result-basic-elicitation": fixture(
      "sep-2322-elicitation-incomplete",
      "calls the fixture tool `test_input_required_result_elicitation` and expects its fixed form",
    ),
    "input-required-result-basic-sampling": fixture(
      "sep-2322-sampling-incomplete",
      "calls the fixture tool `test_input_required_result_sampling` (/mcp never asks for sampling)",
    ),
    "input-required-result-basic-list-roots": fixture(
      "sep-2322-list-roots-incomplete",
      "calls the fixture tool `test_input_required_result_list_roots` (/mcp never asks for roots)",
    ),
    "input-required-result-multiple-input-requests": fixture(
      "sep-2322-multiple-inputs-incomplete",
      "calls the fixture tool `test_input_required_result_multiple_inputs` and expects its fixed keys",
    ),
    "input-required-result-non-tool-request": fixture(
      "sep-2322-non-tool-incomplete",
      "gets the fixture prompt `test_input_required_result_prompt` (no prompt of ours asks)",
    ),
    // On submit_project_brief (onBriefTool), these checks test the fixture tool's own contract.
    "input-required-result-request-state": fixture(
      "sep-2322-request-state-complete",
      "answers the fixture `test_input_required_result_request_state`'s form with `{ ok: true }`; submit_project_brief asks for its own confirmation, so it asks again (its requestState check passes)",
    ),
    "input-required-result-multi-round": fixture(
      "sep-2322-multi-round-r3",
      'expects the fixture `test_input_required_result_multi_round` to complete after `{ color: "blue" }`; submit_project_brief asks for its own confirmation again, with a new state each round (rounds 1 and 2 pass)',
    ),
    "input-required-result-capability-check": fixture(
      "sep-2322-respect-client-capabilities",
      "expects the fixture `test_input_required_result_capabilities`, which always asks by sampling; for a client that declares no elicitation, submit_project_brief files at once (the check's point, no elicitation request to such a client, holds)",
    ),
    "input-required-result-ignore-extra-params": fixture(
      "sep-2322-ignore-unexpected-params",
      "expects the fixture `test_input_required_result_elicitation` to take an answer sent without its requestState; submit_project_brief takes no answer without the state it handed out (it asks first)",
    ),
  },
};

/**
 * The extension scenarios of the one extension /mcp declares, the Skills extension (`io.modelcontextprotocol/skills`,
 * SEP-2640): held to passing like the scenarios of the requirement sets, every check run (a scenario whose checks were
 * all skipped is no pass). The suite runs them at 2026-07-28, as it runs an extension scenario without --spec-version.
 * The other extension scenarios (the tasks extension's) are reported, not required: /mcp does not declare it.
 */
export const declaredExtensionScenarios = ["sep-2640-skills-directory", "sep-2640-skills-enumeration", "sep-2640-skills-manifest"];

/**
 * The input-required scenarios run against submit_project_brief, the one tool that asks for input: the suite calls its
 * own fixture tools (`test_input_required_result_*`, with no arguments and no token), so the test's front renames them
 * to submit_project_brief, with one valid brief for arguments and a token with svc:brief, and passes everything else on
 * as sent. Those that need the fixtures' fixed keys, answers or methods run against /mcp as it is (listed above).
 */
export const onBriefTool: Record<string, string[]> = {
  "2026-07-28": [
    "input-required-result-request-state",
    "input-required-result-multi-round",
    "input-required-result-result-type",
    "input-required-result-tampered-state",
    "input-required-result-missing-input-response",
    "input-required-result-validate-input",
    "input-required-result-capability-check",
    "input-required-result-ignore-extra-params",
  ],
};
