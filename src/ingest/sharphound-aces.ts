import { ACL_KINDS } from '../graph/kinds.js';
import type { Properties } from '../graph/model.js';
import { bool, normaliseKind, str } from './fields.js';
import type { Out } from './sharphound-out.js';

// ACEs become edges of their right's name: the ACL relationships, plus the two SharpHound reports as ACEs
// although BloodHound does not count them among ACL relationships.
const ACL_RIGHTS: ReadonlySet<string> = new Set([...ACL_KINDS, 'AllowedToAct', 'DumpSMSAPassword']);
const OWNER_RIGHTS_SUFFIX = 'S-1-3-4';

export interface Ace {
  principal: string;
  principalKind: string;
  right: string;
  inherited: boolean;
  hash: string;
}

/** The readable ACEs of a list (principal and right present), principals upper-cased. */
export function readAces(list: unknown[]): Ace[] {
  const out: Ace[] = [];
  for (const a of list) {
    const principal = str(a, 'PrincipalSID')?.toUpperCase();
    const right = str(a, 'RightName');
    if (!principal || !right) continue;
    out.push({
      principal,
      principalKind: normaliseKind(str(a, 'PrincipalType')),
      right,
      inherited: bool(a, 'IsInherited'),
      hash: str(a, 'InheritanceHash') ?? '',
    });
  }
  return out;
}

/** BloodHound's owner: the principal of the first Owns (or OwnsRaw) ACE, even when the object owns itself. */
export function ownerSid(aces: Ace[]): string | undefined {
  return aces.find((a) => a.right === 'Owns' || a.right === 'OwnsRaw')?.principal;
}

/**
 * (principal)-[right]->(object) for each ACE, with BloodHound's handling of ownership (ein ParseACEData): the
 * owner gets OwnsRaw and WriteOwner holders WriteOwnerRaw (analysis decides whether they are abusable), unless
 * OWNER RIGHTS (S-1-3-4) entries restrict what an owner gets: then OwnsLimitedRights / WriteOwnerLimitedRights
 * carry the rights granted to OWNER RIGHTS. `props` are the object's properties (doesany…grantownerrights).
 */
export function aceEdges(out: Out, aces: Ace[], oid: string, kind: string, props: Properties): void {
  let owner: Ace | undefined;
  const writeOwners: Ace[] = [];
  const ownerLimited: string[] = [];
  const writeOwnerLimited: string[] = [];
  for (const ace of aces) {
    if (ace.principal === oid || (!ACL_RIGHTS.has(ace.right) && ace.right !== 'OwnsRaw' && ace.right !== 'WriteOwnerRaw')) continue;
    if (ace.right === 'Owns' || ace.right === 'OwnsRaw') owner = ace;
    else if (ace.right === 'WriteOwner' || ace.right === 'WriteOwnerRaw') writeOwners.push(ace);
    else if (ace.principal.endsWith(OWNER_RIGHTS_SUFFIX)) {
      ownerLimited.push(ace.right);
      if (ace.inherited) writeOwnerLimited.push(ace.right);
    } else {
      out.edge(
        ace.principal,
        oid,
        ace.right,
        { isacl: true, isinherited: ace.inherited, inheritancehash: ace.hash },
        ace.principalKind,
        kind,
      );
    }
  }
  const writeOwnerRaw = () => {
    for (const w of writeOwners)
      out.edge(
        w.principal,
        oid,
        'WriteOwnerRaw',
        { isacl: true, isinherited: w.inherited, inheritancehash: w.hash },
        w.principalKind,
        kind,
      );
  };
  const anyInherited = props.doesanyinheritedacegrantownerrights === true;
  if (ownerLimited.length) {
    if (owner)
      out.edge(
        owner.principal,
        oid,
        'OwnsLimitedRights',
        { isacl: true, isinherited: false, privileges: ownerLimited },
        owner.principalKind,
        kind,
      );
    if (writeOwnerLimited.length) {
      for (const w of writeOwners)
        out.edge(
          w.principal,
          oid,
          'WriteOwnerLimitedRights',
          { isacl: true, isinherited: w.inherited, inheritancehash: w.hash, privileges: writeOwnerLimited },
          w.principalKind,
          kind,
        );
    } else if (!anyInherited) writeOwnerRaw();
    return;
  }
  if (props.doesanyacegrantownerrights === true) {
    // OWNER RIGHTS holds only non-abusable rights: inherited ones survive an owner change (nothing to gain), others
    // are removed by it (WriteOwner may be abusable); an owner gains nothing either way.
    if (!anyInherited) writeOwnerRaw();
    return;
  }
  if (owner) out.edge(owner.principal, oid, 'OwnsRaw', { isacl: true, isinherited: false }, owner.principalKind, kind);
  writeOwnerRaw();
}
