import { describe, expect, it } from 'vitest';
import { labelLines } from './labels';

// Nine pixels a character, about what the canvas measures for 14px system-ui capitals.
const width = (s: string) => s.length * 9;

describe('labelLines', () => {
  it('keeps a short name on one line', () => {
    expect(labelLines('DFM@TESTLAB.LOCAL', width)).toEqual(['DFM@TESTLAB.LOCAL']);
  });
  it('puts the domain of a wide name on a second line', () => {
    expect(labelLines('ADMINISTRATOR@TESTLAB.LOCAL', width)).toEqual(['ADMINISTRATOR@', 'TESTLAB.LOCAL']);
  });
  it('leaves a wide name without a domain as it is', () => {
    expect(labelLines('WIN10-WORKSTATION-OF-THE-FINANCE-TEAM.TESTLAB.LOCAL', width)).toHaveLength(1);
    expect(labelLines('TRAILING-AT-SIGN-IS-NOT-A-DOMAIN@', width)).toHaveLength(1);
  });
});
