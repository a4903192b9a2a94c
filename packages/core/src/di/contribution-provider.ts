/**
 * Theia-style contribution points: every contribution is multi-bound to a token, and consumers
 * inject a provider that collects them all.
 */
import type { ContainerModuleLoadOptions } from "inversify";

export interface ContributionProvider<T> {
  getContributions(): T[];
}

export function contributionProviderToken(token: symbol): symbol {
  return Symbol.for(`${token.description}.Provider`);
}

export function bindContributionProvider(bind: ContainerModuleLoadOptions["bind"], token: symbol): void {
  bind<ContributionProvider<unknown>>(contributionProviderToken(token)).toDynamicValue((ctx) => ({
    getContributions: () => ctx.getAll<unknown>(token, { optional: true }) ?? [],
  }));
}
