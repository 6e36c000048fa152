import SNMWire

/// The members of a client route's JSON body that GoTrue reads (`OAuthServerClientRegisterParams`,
/// `OAuthServerClientUpdateParams`), decoded as Go decodes them: names matched whatever their
/// case, `null` as absent, other members ignored, a value of the wrong type (or a body that is no
/// object) 400 bad_json "Invalid JSON body".
///
/// ```swift
/// let fields = try OAuthClientFields(body: request.body)
/// fields.redirectURIs   // ["https://app.example.com/cb"], nil when absent or null
/// ```
struct OAuthClientFields: Equatable {
  var redirectURIs: [String]?
  var grantTypes: [String]?
  var clientName: String?
  var clientURI: String?
  var logoURI: String?
  /// Read at create only: an update cannot change a client's type.
  var clientType: String?
  var tokenEndpointAuthMethod: String?

  static let invalidJSON = AuthFailure(
    status: 400, code: "bad_json", message: "Invalid JSON body")

  init() {}

  init(body: [UInt8]) throws(AuthFailure) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: body)
    } catch {
      throw Self.invalidJSON
    }
    if value.isNull { return }
    guard let members = value.objectValue else { throw Self.invalidJSON }
    for (key, value) in members {
      switch key.lowercased() {
      case "redirect_uris": redirectURIs = try Self.strings(value)
      case "grant_types": grantTypes = try Self.strings(value)
      case "client_name": clientName = try Self.string(value)
      case "client_uri": clientURI = try Self.string(value)
      case "logo_uri": logoURI = try Self.string(value)
      case "client_type": clientType = try Self.string(value)
      case "token_endpoint_auth_method": tokenEndpointAuthMethod = try Self.string(value)
      default: continue
      }
    }
  }

  static func string(_ value: JSONValue) throws(AuthFailure) -> String? {
    if value.isNull { return nil }
    guard let text = value.stringValue else { throw invalidJSON }
    return text
  }

  /// An array of strings (a `null` item is Go's empty string).
  static func strings(_ value: JSONValue) throws(AuthFailure) -> [String]? {
    if value.isNull { return nil }
    guard let items = value.arrayValue else { throw invalidJSON }
    var texts: [String] = []
    for item in items {
      guard item.isNull || item.stringValue != nil else { throw invalidJSON }
      texts.append(item.stringValue ?? "")
    }
    return texts
  }
}
