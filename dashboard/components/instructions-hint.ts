/**
 * What custom instructions do, said honestly: they are passed to a vision
 * model with each photo; without one (the local estimator) nothing reads them, so
 * the hint says so instead of promising that they guide the estimate. The answer comes from
 * GET /api/capabilities (dashboard/api/capabilities.ts).
 */
export function instructionsHint(visionModel: boolean, where: 'account' | 'business'): string {
  if (visionModel) {
    return where === 'account'
      ? 'Tell the AI about your crew, equipment and way of working. They guide the estimate; they cannot change its format.'
      : "Tell the AI about your crew, equipment and way of working. They guide your website's estimates; they cannot change their format.";
  }
  return (
    'Passed to an AI vision model with each photo when one is configured. This server has none, so estimates come from ' +
    'the sizes, the site answers and the project details, and these instructions are kept for when a model is added.'
  );
}
