/** Work done once the server process has its database (background runners join here). */
export async function onServerStarted(): Promise<void> {
  // Capabilities that run in the background register their start-up here.
}
