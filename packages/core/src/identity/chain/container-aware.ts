import type { DependencyContainer } from "tsyringe";

/**
 * A DSL part that needs the platform's ports but is created before the platform exists (an
 * `access(manager)` handle, a filter passed to `addFilterBefore`): chain assembly calls `attach`
 * with the platform's container at start, before the first request.
 */
export interface ContainerAware {
  attach(container: DependencyContainer): void;
}

/** Attaches `part` when it is ContainerAware; other values are left alone. */
export function attachToContainer(part: unknown, container: DependencyContainer | undefined): void {
  if (!container || typeof part !== "object" || part === null) return;
  const attach = (part as Partial<ContainerAware>).attach;
  if (typeof attach === "function") attach.call(part, container);
}
