import type { AnalysisGraph, Changes } from '../../view.js';
import { appAdministration } from './app-admin.js';
import { appRoleAssignments } from './app-roles.js';
import { executeCommand } from './execute-command.js';
import { managementGroupNames } from './management-groups.js';
import { roleApprovers } from './role-approver.js';
import { roleAssignments } from './role-assignments.js';

export { AZURE_POST_PROCESSED_KINDS } from './kinds.js';

/** BloodHound's Azure post-processing (azure.Post), one family per module, in its order. */
export const AZURE_STEPS: ReadonlyArray<(g: AnalysisGraph, c: Changes) => void | Promise<void>> = [
  managementGroupNames,
  roleAssignments,
  appRoleAssignments,
  executeCommand,
  appAdministration,
  roleApprovers,
];
