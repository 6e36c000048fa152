import Foundation
import SNMGateway
import SNMLocalAuth
import SNMTOML

extension ProjectFolderConfig {
  /// The providers whose real keys the id_token grant can take from the config.
  static let keyedProviders = ["apple", "google"]

  /// `[auth.external.apple]` (or `google`) with `enabled = true` and `jwks`, a JWKS file
  /// (relative to `supabase/`) or an `https://` URL: the id_token grant verifies the provider's
  /// tokens with those keys, for the audiences in `client_id` (GoTrue's comma-separated list).
  /// Without `jwks`, Apple's tokens are the test issuer's and Google stays off.
  mutating func readProviderKeys(_ reader: inout ConfigReader) throws(TOMLError) {
    for provider in Self.keyedProviders {
      let path = ["auth", "external", provider]
      guard let value = reader.value(path + ["jwks"]) else { continue }
      let enabled =
        provider == "apple"
        ? authSwitches["apple"] == true : try reader.boolean(path + ["enabled"]) == true
      guard enabled else {
        // A provider switched off asks for nothing, its keys included.
        for (key, _) in try reader.table(path)?.entries ?? [] { reader.markRead(path + [key]) }
        continue
      }
      guard let jwks = try reader.string(path + ["jwks"]) else { continue }
      let clientIDs = (try reader.string(path + ["client_id"]) ?? "")
        .split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
      guard !clientIDs.isEmpty else {
        throw reader.error(
          value, path + ["jwks"],
          "needs client_id: the audience the provider's tokens are for (the app's client id)")
      }
      let source: String
      if jwks.hasPrefix("https://") {
        source = jwks
      } else if jwks.contains("://") {
        throw reader.error(
          value, path + ["jwks"],
          "must be a JWKS file or an https:// URL (provider keys are fetched over HTTPS only)")
      } else {
        source = folder.resolved(jwks)
        guard let data = FileManager.default.contents(atPath: source) else {
          throw reader.error(value, path + ["jwks"], "names \(source), which cannot be read")
        }
        guard let keys = SigningKey.publicKeys(jwks: Array(data)), !keys.isEmpty else {
          throw reader.error(
            value, path + ["jwks"],
            "names \(source), which holds no RS256 or ES256 key ({\"keys\": [...]})")
        }
      }
      providerKeys[provider] = ProviderKeys.Source(jwks: source, clientIDs: clientIDs)
    }
  }
}
