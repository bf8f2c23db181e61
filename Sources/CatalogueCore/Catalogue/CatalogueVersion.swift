/// The version of CatalogueKit and the `catalogue` tool.
public enum CatalogueVersion {
    /// Semantic version, e.g. "0.1.0".
    public static let current = "0.1.0"
}
