"""k8s-api-docs: versioned Kubernetes API reference sites from OpenAPI definitions."""

__version__ = "0.1.0"
