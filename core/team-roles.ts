/** The roles in a team (docs/product.md, Team), free of zod for the header every screen shows; core/team.ts re-exports them. */
export const TEAM_ROLES = ['owner', 'office', 'crew'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const ROLE_LABELS: Record<TeamRole, string> = { owner: 'Owner', office: 'Office', crew: 'Crew' };
