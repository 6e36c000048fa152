import SNMGateway
import SNMWire

extension AuthAdminAPI {
  /// `GET /admin/users?page=N&per_page=M[&filter=TEXT]`: `{"users": [...], "aud": ...}`, newest
  /// first (GoTrue's default sort), with GoTrue's `X-Total-Count` and `Link` (next, last) headers.
  func listUsers(_ request: HTTPRequest) throws -> HTTPResponse {
    func number(_ name: String, default value: Int) throws(AuthFailure) -> Int {
      guard let text = request.queryValue(name), !text.isEmpty else { return value }
      guard let parsed = Int(text), parsed >= 0 else {
        throw AuthFailure.validationFailed(
          "Bad Pagination Parameters: strconv.ParseUint: parsing \"\(text)\": invalid syntax")
      }
      return parsed
    }
    let page = max(1, try number("page", default: 1))
    var perPage = try number("per_page", default: 50)
    if perPage == 0 { perPage = 50 }
    let filter = request.queryValue("filter") ?? ""
    let (users, total) = try gateway.pool.withConnection { connection in
      try AuthStore(connection).users(matching: filter, page: page, perPage: perPage)
    }
    var headers = HTTPHeaders()
    let pages = (total + perPage - 1) / perPage
    func link(_ page: Int) -> String {
      var items = [("page", String(page)), ("per_page", String(perPage))]
      if !filter.isEmpty { items.append(("filter", filter)) }
      return "</admin/users?" + AuthRedirect.formEncode(items.sorted { $0.0 < $1.0 }) + ">"
    }
    var header = ""
    if pages > page { header += link(page + 1) + "; rel=\"next\", " }
    header += link(pages) + "; rel=\"last\""
    headers["Link"] = header
    headers["X-Total-Count"] = String(total)
    return .json(
      status: 200,
      .object([
        .init("users", .array(users.map(\.json))), .init("aud", .string("authenticated")),
      ]),
      headers: headers)
  }

  /// `POST /admin/users`: email and/or phone, password, email_confirm, phone_confirm,
  /// user_metadata, app_metadata, ban_duration. No mail or text is sent; an unconfirmed user
  /// stays so until confirmed.
  func createUser(_ body: JSONValue) throws -> HTTPResponse {
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    var phone = body["phone"]?.stringValue ?? ""
    guard !email.isEmpty || !phone.isEmpty else {
      throw AuthFailure.validationFailed("Cannot create a user without either an email or phone")
    }
    if !phone.isEmpty { phone = try PhoneNumber.normalized(phone) }
    if !email.isEmpty, !AuthGateway.isPlausibleEmail(email) { throw AuthFailure.invalidEmail }
    let password = body["password"]?.stringValue
    if let password { try gateway.checkNewPassword(password) }
    let userMetadata = try AuthGateway.metadata(body["user_metadata"], name: "user_metadata")
    let appMetadata = try AuthGateway.metadata(body["app_metadata"], name: "app_metadata")
    let ban = try Self.banSeconds(body["ban_duration"]?.stringValue)
    let confirmed = body["email_confirm"]?.boolValue ?? false
    let phoneConfirmed = body["phone_confirm"]?.boolValue ?? false
    let provider = email.isEmpty ? "phone" : "email"
    do {
      let user = try gateway.inTransaction { connection in
        let store = AuthStore(connection)
        guard try !store.isEmailTaken(email) else { throw AuthFailure.emailExists }
        if !phone.isEmpty, try store.isPhoneTaken(phone) { throw Self.phoneExists }
        let id = try store.insertUser(
          NewAuthUser(
            email: email, phone: phone, password: password, provider: provider,
            appMetadata: appMetadata, userMetadata: userMetadata, emailConfirmed: confirmed,
            phoneConfirmed: phoneConfirmed, bannedSeconds: ban ?? 0))
        guard let user = try store.user(id: id) else {
          throw PGError(kind: .client, message: "no user id")
        }
        return user
      }
      return .json(status: 200, user.json)
    } catch let error as PGError where error.sqlState == "23505" {
      throw error.message.contains("phone") ? Self.phoneExists : AuthFailure.emailExists
    }
  }

  static let phoneExists = AuthFailure(
    status: 422, code: "phone_exists",
    message: "A user with this phone number has already been registered")

  /// `PUT /admin/users/{id}`: any of email, password, email_confirm, user_metadata and
  /// app_metadata (merged, a null removes a key), ban_duration (`none` lifts a ban).
  func updateUserAsAdmin(_ id: String, body: JSONValue) throws -> HTTPResponse {
    _ = try adminUser(id)
    let email = body["email"]?.stringValue?.trimmingSpaces ?? ""
    if !email.isEmpty && !AuthGateway.isPlausibleEmail(email) { throw AuthFailure.invalidEmail }
    let password = body["password"]?.stringValue
    if let password { try gateway.checkNewPassword(password) }
    let userMetadata = body["user_metadata"].map {
      try? AuthGateway.metadata($0, name: "user_metadata")
    }
    let appMetadata = body["app_metadata"].map {
      try? AuthGateway.metadata($0, name: "app_metadata")
    }
    for (name, value) in [
      ("user_metadata", body["user_metadata"]), ("app_metadata", body["app_metadata"]),
    ] {
      if let value, value.objectValue != nil { try AuthMetadataBound.check(value, name: name) }
    }
    let banText = body["ban_duration"]?.stringValue
    let ban = try Self.banSeconds(banText)
    let user = try gateway.inTransaction { connection in
      let store = AuthStore(connection)
      if !email.isEmpty {
        guard try !store.isEmailTaken(email, byOtherThan: id) else {
          throw AuthFailure.emailExists
        }
        try store.setEmail(userID: id, to: email)
      }
      if let password { try store.setPassword(userID: id, to: password) }
      if let confirm = body["email_confirm"]?.boolValue {
        try store.setEmailConfirmed(userID: id, confirm)
      }
      for (column, value) in [(AuthStore.MetadataColumn.user, userMetadata), (.app, appMetadata)] {
        guard let value, let value, let object = value.objectValue else { continue }
        try store.mergeMetadata(column, userID: id, with: object)
      }
      if banText != nil {
        try store.ban(userID: id, seconds: ban ?? 0)
        if (ban ?? 0) > 0 { try store.deleteSessions(userID: id) }
      }
      return try adminUser(id, on: connection)
    }
    return .json(status: 200, user.json)
  }

  /// `DELETE /admin/users/{id}` `{"should_soft_delete": bool}`: `{}`. A soft delete keeps the row
  /// (its id stays taken) but clears the address, password and metadata and ends its sessions.
  func deleteUser(_ id: String, body: JSONValue) throws -> HTTPResponse {
    _ = try adminUser(id)
    let soft = body["should_soft_delete"]?.boolValue ?? false
    try gateway.inTransaction { connection in
      let store = AuthStore(connection)
      if soft { try store.softDeleteUser(id: id) } else { try store.deleteUser(id: id) }
    }
    return .json(status: 200, "{}")
  }

  /// Seconds of a Go duration (`24h`, `1h30m`, `90s`, `500ms`); nil for `none` or absent.
  static func banSeconds(_ text: String?) throws(AuthFailure) -> Double? {
    guard let text, !text.isEmpty, text != "none" else { return nil }
    var total = 0.0
    var number = ""
    var index = text.startIndex
    let units: [(String, Double)] = [
      ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("h", 3600), ("m", 60), ("s", 1),
    ]
    while index < text.endIndex {
      let character = text[index]
      if character.isNumber || character == "." {
        number.append(character)
        index = text.index(after: index)
        continue
      }
      guard let value = Double(number),
        let (unit, factor) = units.first(where: { text[index...].hasPrefix($0.0) })
      else {
        throw AuthFailure.validationFailed(
          "invalid format for ban duration: time: invalid duration \"\(text)\"")
      }
      total += value * factor
      number = ""
      index = text.index(index, offsetBy: unit.count)
    }
    guard number.isEmpty else {
      throw AuthFailure.validationFailed(
        "invalid format for ban duration: time: missing unit in duration \"\(text)\"")
    }
    return total
  }
}
