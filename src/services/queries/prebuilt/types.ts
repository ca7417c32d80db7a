/** The platforms BloodHound groups its pre-built searches under. */
export type Platform = 'Active Directory' | 'Azure';

/** A pre-built query: a question an analyst asks, answered by one Cypher query over the graph. */
export interface PrebuiltQuery {
  /** Stable id (a slug): front-ends and links keep it across releases. */
  id: string;
  name: string;
  /** BloodHound's section name (its pre-built searches' subheader), e.g. "Kerberos Interaction". */
  category: string;
  platform: Platform;
  description: string;
  query: string;
}

/** A section of entries sharing a category and platform; the catalogue is written as these. */
export interface Section {
  category: string;
  platform: Platform;
  queries: Omit<PrebuiltQuery, 'category' | 'platform'>[];
}

/** Tier Zero as analysis and the zones mark it (a kind, as BloodHound's asset-group tags do). */
export const TIER_ZERO = 'Tag_Tier_Zero';
/** Owned objects (the Owned label of the zones). */
export const OWNED = 'Tag_Owned';

/** Joins a query's lines: the catalogue writes each clause on its own line, as BloodHound's UI shows them. */
export const cypher = (...lines: string[]) => lines.join('\n');
