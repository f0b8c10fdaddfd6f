import type { InjectionToken } from "tsyringe";
import type { ExpressionCompiler } from "./expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "./expression/policy-expression-converter.js";
import type { MethodSecurity } from "./method/method-security.js";
import type { SecurityContextHolder } from "./method/security-context-holder.js";
import type { DecisionAuditQueue } from "./pdp/decision-audit-queue.js";
import type { PolicyAdministrationService } from "./policy/policy-administration-service.js";

/** DI token of the platform's (cached) policy expression compiler. */
export const ExpressionCompilerToken: InjectionToken<ExpressionCompiler> = Symbol.for(
  "platform.ExpressionCompiler",
);
/** DI token of the PolicyExpressionConverter. */
export const PolicyExpressionConverterToken: InjectionToken<PolicyExpressionConverter> = Symbol.for(
  "platform.PolicyExpressionConverter",
);
/** DI token of the PAP service. */
export const PolicyAdministrationServiceToken: InjectionToken<PolicyAdministrationService> = Symbol.for(
  "platform.PolicyAdministrationService",
);
/** DI token of the queue that carries authorization audit events to the AuditSink off the request path. */
export const DecisionAuditQueueToken: InjectionToken<DecisionAuditQueue> = Symbol.for(
  "platform.DecisionAuditQueue",
);
/** DI token of the current-caller holder (AsyncLocalStorage) that method protection reads. */
export const SecurityContextHolderToken: InjectionToken<SecurityContextHolder> = Symbol.for(
  "platform.SecurityContextHolder",
);
/** DI token of MethodSecurity (`protect(service)`, `register(container, token, Class)`). */
export const MethodSecurityToken: InjectionToken<MethodSecurity> = Symbol.for("platform.MethodSecurity");
