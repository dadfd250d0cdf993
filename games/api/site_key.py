"""`/.well-known/klinzha-site-key`: the site's public keys, which sign the records of battles
played online, for anyone verifying one offline (`kz verify --site-keys`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.site_key import site_keys_published


class RetiredSiteKeySerializer(serializers.Serializer):
    key_id = serializers.CharField()
    public_key = serializers.CharField(help_text="base64 of the 32 raw bytes")


class SiteKeySerializer(serializers.Serializer):
    key_id = serializers.CharField(help_text="the current key's id")
    algorithm = serializers.CharField(help_text="always Ed25519")
    public_key = serializers.CharField(
        allow_null=True, help_text="base64 of the 32 raw bytes; null without a site key"
    )
    retired = RetiredSiteKeySerializer(many=True, help_text="keys older records were signed with")


class SiteKeyView(APIView):
    """The site's Ed25519 public keys, current and retired."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(responses=SiteKeySerializer, operation_id="site_key")
    def get(self, request: Request) -> Response:
        return Response(site_keys_published())
