import type { HostUserRecord } from "./host-users.js";

/**
 * The accounts this service had before it used the platform, with the hashes its previous system
 * wrote: bcrypt for ana and root, argon2id for bo. Example data: the passwords are in the README.
 */
export function existingUsers(): HostUserRecord[] {
  const base = { active: true, locked: false, version: 1, createdAt: Date.UTC(2024, 0, 1) };
  return [
    {
      ...base,
      id: "u-ana",
      login: "ana",
      email: "ana@example.test",
      passwordHash: "$2a$10$AyPNPesJYlmvVqvGRsgeNuIrJPzXb43G8MC.5Y4XhnfOi87LlVkC6",
      roles: ["ROLE_USER"],
    },
    {
      ...base,
      id: "u-bo",
      login: "bo",
      email: "bo@example.test",
      passwordHash:
        "$argon2id$v=19$m=19456,t=2,p=1$WQJwGSjyXuK5Hk+IPpIRZA$yKvkqDTG4kAugGUaN28zN69UxINM9GcdsPqOydnIWvs",
      roles: ["ROLE_USER"],
    },
    {
      ...base,
      id: "u-root",
      login: "root",
      email: "root@example.test",
      passwordHash: "$2a$10$ZIjLTmyS1Lpr.uK9ZVGrOe8Tw11NrzbzuWjIwxrzpPyRjmiL66zI6",
      roles: ["ROLE_USER", "ROLE_ADMIN"],
    },
  ];
}
