import SNMWire

extension DatabaseCatalog {
  /// Reads the document ``CatalogQuery/sql`` returns.
  ///
  /// Throws ``CatalogError`` when the text is not that document.
  public init(catalogJSON text: String, schemas: [String], source: String) throws(CatalogError) {
    let document: JSONValue
    do {
      document = try JSONValue(parsing: text)
    } catch {
      throw CatalogError("the catalog query's answer is not JSON: \(error)")
    }
    let types = TypeTable(document["types"]?.arrayValue ?? [], schemas: Set(schemas))
    self.init(schemas: schemas, source: source)
    for item in document["relations"]?.arrayValue ?? [] {
      let columns = (item["columns"]?.arrayValue ?? []).map { column in
        let identity = column["identity"]?.stringValue ?? ""
        let generated = column["generated"]?.stringValue ?? ""
        return Column(
          name: column["name"]?.stringValue ?? "",
          type: types.reference(
            column["type"]?.intValue ?? 0, dimensions: column["dimensions"]?.intValue ?? 0),
          nullable: column["not_null"]?.boolValue != true,
          hasDefault: column["has_default"]?.boolValue == true || !identity.isEmpty
            || !generated.isEmpty,
          readOnly: identity == "a" || !generated.isEmpty,
          comment: column["comment"]?.stringValue)
      }
      let schema = item["schema"]?.stringValue ?? ""
      let name = item["name"]?.stringValue ?? ""
      let comment = item["comment"]?.stringValue
      let kind: Relation.Kind
      switch item["kind"]?.stringValue {
      case "c":
        composites.append(
          CompositeType(schema: schema, name: name, attributes: columns, comment: comment))
        continue
      case "v": kind = .view
      case "m": kind = .materializedView
      case "f": kind = .foreignTable
      default: kind = .table
      }
      relations.append(
        Relation(
          schema: schema, name: name, kind: kind, comment: comment, columns: columns,
          insertable: item["insertable"]?.boolValue == true,
          updatable: item["updatable"]?.boolValue == true,
          primaryKey: (item["primary_key"]?.arrayValue ?? []).compactMap(\.stringValue)))
    }
    for item in document["enums"]?.arrayValue ?? [] {
      enums.append(
        EnumType(
          schema: item["schema"]?.stringValue ?? "", name: item["name"]?.stringValue ?? "",
          labels: (item["labels"]?.arrayValue ?? []).compactMap(\.stringValue),
          comment: item["comment"]?.stringValue))
    }
    for item in document["functions"]?.arrayValue ?? [] {
      if let function = types.function(item) { functions.append(function) }
    }
  }
}

/// Why a catalog could not be read: the message says where and why.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
