// A host configuration module outside the repository, as a user writes it: it imports
// definePlatformConfig from the installed @keyward/cli and adds a route of its own.
import { definePlatformConfig } from "@keyward/cli";

export default definePlatformConfig({
  properties: { "platform.http.max-body-size": "64kb" },
  routes(routes) {
    routes.add({
      method: "GET",
      path: "/api/hello-from-config",
      handler: () => ({ hello: "config" }),
      name: "app.hello",
      description: "Hello from a host configuration",
    });
  },
});
