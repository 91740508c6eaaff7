"""The user endpoint: ``DELETE /users/<user_id>``, the GDPR erasure of a user and everything tied to them."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from memories.api.base import ApiView
from memories.services.erasure import user_erase
from orgmemory.api.serializers import error_responses
from orgmemory.db_routing import records_writes


@records_writes("delete")
class UserEraseApi(ApiView):
    required_permission = "admin"

    class UserErasureOutputSerializer(serializers.Serializer):
        user_id = serializers.CharField()
        memories = serializers.IntegerField(help_text="At their scope, plus everything they authored elsewhere.")
        links = serializers.IntegerField()
        entities = serializers.IntegerField(help_text="Entities no memory mentions any more, deleted.")
        scopes = serializers.IntegerField()
        api_keys = serializers.IntegerField(help_text="Keys restricted to their subtree, deleted.")
        policies = serializers.IntegerField()

    @extend_schema(
        operation_id="user_erase",
        tags=["users"],
        summary="Erase a user (GDPR)",
        description=(
            "Needs the `admin` permission. Deletes every memory at the user's scope, every memory they authored "
            "at any scope (with its history), the graph links those memories stated, entities nothing mentions "
            "any more, keys and policies bound to their node, the node and the member. Irreversible. A key "
            "restricted to a subtree erases only a user whose memories all lie inside it (else 403 "
            "`scope_restricted`, nothing erased)."
        ),
        responses={
            200: OpenApiResponse(
                UserErasureOutputSerializer,
                examples=[
                    OpenApiExample(
                        "erased",
                        value={
                            "user_id": "albert",
                            "memories": 12,
                            "links": 9,
                            "entities": 3,
                            "scopes": 1,
                            "api_keys": 0,
                            "policies": 0,
                        },
                    )
                ],
            ),
            **error_responses(400, 403, 404),
        },
    )
    def delete(self, request: Request, user_id: str) -> Response:
        self.caller(user_id)  # 404 unknown_user; a restricted key acts only for users inside its subtree...
        # ...and erases only a user whose memories all lie inside it (else 403: an erasure is complete or not done)
        return Response(user_erase(tenant=self.tenant, user_id=user_id, within=self.api_key.scope).as_dict())
