import { type Platform } from "@keyward/core";
import { type PolicyCreateInput, PolicyAdministrationService } from "@keyward/core/authz";

/** The service's policies, kept in code and seeded into the policy store at start. */
export const HOST_POLICIES: readonly PolicyCreateInput[] = [
  {
    name: "Reports: administrators",
    description: "Only administrators read the reports (the page and the API).",
    effect: "ALLOW",
    priority: 10,
    targets: [
      { targetType: "URL", targetIdentifier: "/reports" },
      { targetType: "URL", targetIdentifier: "/api/reports" },
    ],
    rules: [{ name: "administrators", conditions: [{ expression: "hasRole('ADMIN')" }] }],
  },
];

/**
 * Stores the policies that are missing, through the PAP, as the system actor `system:host-seed`:
 * validated and audited like an administrator's change; one an administrator deleted comes back at
 * the next start, one they changed is left as they left it.
 */
export async function seedHostPolicies(platform: Platform): Promise<string[]> {
  const pap = platform.resolve(PolicyAdministrationService);
  return pap.seedMissing(HOST_POLICIES, pap.systemActor("host-seed"));
}
