import Foundation

/// The signed-in user, as GoTrue describes it (the fields snm shows; the rest is not kept).
///
/// ```swift
/// session.user.id            // 6f1b...
/// session.user.isAnonymous   // true after `login`
/// ```
public struct SupabaseUser: Sendable, Hashable, Codable {
  public var id: UUID
  /// `authenticated` for every signed-in user, anonymous ones included.
  public var role: String?
  public var aud: String?
  /// Empty for anonymous users.
  public var email: String?
  public var phone: String?
  public var isAnonymous: Bool

  public init(
    id: UUID, role: String? = "authenticated", aud: String? = "authenticated",
    email: String? = nil, phone: String? = nil, isAnonymous: Bool = false
  ) {
    self.id = id
    self.role = role
    self.aud = aud
    self.email = email
    self.phone = phone
    self.isAnonymous = isAnonymous
  }

  enum CodingKeys: String, CodingKey {
    case id, role, aud, email, phone
    case isAnonymous = "is_anonymous"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(UUID.self, forKey: .id)
    role = try container.decodeIfPresent(String.self, forKey: .role)
    aud = try container.decodeIfPresent(String.self, forKey: .aud)
    email = try container.decodeIfPresent(String.self, forKey: .email)
    phone = try container.decodeIfPresent(String.self, forKey: .phone)
    isAnonymous = try container.decodeIfPresent(Bool.self, forKey: .isAnonymous) ?? false
  }

  /// The email when there is one, else `anonymous` or the id: what the prompt shows.
  public var displayName: String {
    if let email, !email.isEmpty { return email }
    if let phone, !phone.isEmpty { return phone }
    return isAnonymous ? "anonymous" : id.uuidString.lowercased()
  }

  /// ``displayName``, but an anonymous user by its id too (`anonymous user 6f1b...`): the words
  /// that tell two users apart where both may be anonymous (another `login` elsewhere).
  public var named: String {
    isAnonymous ? "anonymous user \(id.uuidString.lowercased())" : displayName
  }
}
