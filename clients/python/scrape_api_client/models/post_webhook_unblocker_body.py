from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.post_webhook_unblocker_body_formats_item_type_0 import (
    PostWebhookUnblockerBodyFormatsItemType0,
)
from ..models.post_webhook_unblocker_body_method import PostWebhookUnblockerBodyMethod
from ..models.post_webhook_unblocker_body_mode import PostWebhookUnblockerBodyMode
from ..models.post_webhook_unblocker_body_proxy import PostWebhookUnblockerBodyProxy
from ..models.post_webhook_unblocker_body_proxy_tier import (
    PostWebhookUnblockerBodyProxyTier,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_webhook_unblocker_body_body_type_1 import (
        PostWebhookUnblockerBodyBodyType1,
    )
    from ..models.post_webhook_unblocker_body_cookies_item import (
        PostWebhookUnblockerBodyCookiesItem,
    )
    from ..models.post_webhook_unblocker_body_document import (
        PostWebhookUnblockerBodyDocument,
    )
    from ..models.post_webhook_unblocker_body_fill_form import (
        PostWebhookUnblockerBodyFillForm,
    )
    from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0 import (
        PostWebhookUnblockerBodyFormatsItemType1Type0,
    )
    from ..models.post_webhook_unblocker_body_formats_item_type_1_type_1 import (
        PostWebhookUnblockerBodyFormatsItemType1Type1,
    )
    from ..models.post_webhook_unblocker_body_headers import (
        PostWebhookUnblockerBodyHeaders,
    )
    from ..models.post_webhook_unblocker_body_options import (
        PostWebhookUnblockerBodyOptions,
    )
    from ..models.post_webhook_unblocker_body_selectors_item_type_1 import (
        PostWebhookUnblockerBodySelectorsItemType1,
    )
    from ..models.post_webhook_unblocker_body_session import (
        PostWebhookUnblockerBodySession,
    )
    from ..models.post_webhook_unblocker_body_webhook import (
        PostWebhookUnblockerBodyWebhook,
    )
    from ..models.scrape_action_type_0 import ScrapeActionType0
    from ..models.scrape_action_type_1 import ScrapeActionType1
    from ..models.scrape_action_type_2 import ScrapeActionType2
    from ..models.scrape_action_type_3 import ScrapeActionType3
    from ..models.scrape_action_type_4 import ScrapeActionType4
    from ..models.scrape_action_type_5 import ScrapeActionType5
    from ..models.scrape_action_type_6 import ScrapeActionType6
    from ..models.scrape_action_type_7 import ScrapeActionType7


T = TypeVar("T", bound="PostWebhookUnblockerBody")


@_attrs_define
class PostWebhookUnblockerBody:
    """
    Attributes:
        url (str):
        selectors (list[PostWebhookUnblockerBodySelectorsItemType1 | str] | Unset):
        mode (PostWebhookUnblockerBodyMode | Unset):  Default: PostWebhookUnblockerBodyMode.HTTP.
        method (PostWebhookUnblockerBodyMethod | Unset):
        headers (PostWebhookUnblockerBodyHeaders | Unset):
        body (PostWebhookUnblockerBodyBodyType1 | str | Unset):
        capture_network (bool | Unset):  Default: False.
        fill_form (PostWebhookUnblockerBodyFillForm | Unset):
        wait_for (str | Unset):
        options (PostWebhookUnblockerBodyOptions | Unset):
        async_ (bool | Unset):  Default: False.
        formats (list[PostWebhookUnblockerBodyFormatsItemType0 | PostWebhookUnblockerBodyFormatsItemType1Type0 |
            PostWebhookUnblockerBodyFormatsItemType1Type1] | Unset):
        only_main_content (bool | Unset):
        include_heading (bool | Unset):
        include_tags (list[str] | Unset):
        exclude_tags (list[str] | Unset):
        webhook (PostWebhookUnblockerBodyWebhook | Unset):
        proxy (PostWebhookUnblockerBodyProxy | Unset):
        proxy_tier (PostWebhookUnblockerBodyProxyTier | Unset):
        country (str | Unset):
        block_detection (bool | Unset):
        cookies (list[PostWebhookUnblockerBodyCookiesItem] | Unset):
        session (PostWebhookUnblockerBodySession | Unset):
        document (PostWebhookUnblockerBodyDocument | Unset):
        actions (list[ScrapeActionType0 | ScrapeActionType1 | ScrapeActionType2 | ScrapeActionType3 | ScrapeActionType4
            | ScrapeActionType5 | ScrapeActionType6 | ScrapeActionType7] | Unset):
        mobile (bool | Unset):
        skip_tls_verification (bool | Unset):
        max_age (int | Unset):
        store_in_cache (bool | Unset):
    """

    url: str
    selectors: list[PostWebhookUnblockerBodySelectorsItemType1 | str] | Unset = UNSET
    mode: PostWebhookUnblockerBodyMode | Unset = PostWebhookUnblockerBodyMode.HTTP
    method: PostWebhookUnblockerBodyMethod | Unset = UNSET
    headers: PostWebhookUnblockerBodyHeaders | Unset = UNSET
    body: PostWebhookUnblockerBodyBodyType1 | str | Unset = UNSET
    capture_network: bool | Unset = False
    fill_form: PostWebhookUnblockerBodyFillForm | Unset = UNSET
    wait_for: str | Unset = UNSET
    options: PostWebhookUnblockerBodyOptions | Unset = UNSET
    async_: bool | Unset = False
    formats: (
        list[
            PostWebhookUnblockerBodyFormatsItemType0
            | PostWebhookUnblockerBodyFormatsItemType1Type0
            | PostWebhookUnblockerBodyFormatsItemType1Type1
        ]
        | Unset
    ) = UNSET
    only_main_content: bool | Unset = UNSET
    include_heading: bool | Unset = UNSET
    include_tags: list[str] | Unset = UNSET
    exclude_tags: list[str] | Unset = UNSET
    webhook: PostWebhookUnblockerBodyWebhook | Unset = UNSET
    proxy: PostWebhookUnblockerBodyProxy | Unset = UNSET
    proxy_tier: PostWebhookUnblockerBodyProxyTier | Unset = UNSET
    country: str | Unset = UNSET
    block_detection: bool | Unset = UNSET
    cookies: list[PostWebhookUnblockerBodyCookiesItem] | Unset = UNSET
    session: PostWebhookUnblockerBodySession | Unset = UNSET
    document: PostWebhookUnblockerBodyDocument | Unset = UNSET
    actions: (
        list[
            ScrapeActionType0
            | ScrapeActionType1
            | ScrapeActionType2
            | ScrapeActionType3
            | ScrapeActionType4
            | ScrapeActionType5
            | ScrapeActionType6
            | ScrapeActionType7
        ]
        | Unset
    ) = UNSET
    mobile: bool | Unset = UNSET
    skip_tls_verification: bool | Unset = UNSET
    max_age: int | Unset = UNSET
    store_in_cache: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.post_webhook_unblocker_body_body_type_1 import (
            PostWebhookUnblockerBodyBodyType1,
        )
        from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0 import (
            PostWebhookUnblockerBodyFormatsItemType1Type0,
        )
        from ..models.post_webhook_unblocker_body_selectors_item_type_1 import (
            PostWebhookUnblockerBodySelectorsItemType1,
        )
        from ..models.scrape_action_type_0 import ScrapeActionType0
        from ..models.scrape_action_type_1 import ScrapeActionType1
        from ..models.scrape_action_type_2 import ScrapeActionType2
        from ..models.scrape_action_type_3 import ScrapeActionType3
        from ..models.scrape_action_type_4 import ScrapeActionType4
        from ..models.scrape_action_type_5 import ScrapeActionType5
        from ..models.scrape_action_type_6 import ScrapeActionType6

        url = self.url

        selectors: list[dict[str, Any] | str] | Unset = UNSET
        if not isinstance(self.selectors, Unset):
            selectors = []
            for selectors_item_data in self.selectors:
                selectors_item: dict[str, Any] | str
                if isinstance(
                    selectors_item_data, PostWebhookUnblockerBodySelectorsItemType1
                ):
                    selectors_item = selectors_item_data.to_dict()
                else:
                    selectors_item = selectors_item_data
                selectors.append(selectors_item)

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value

        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        body: dict[str, Any] | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        elif isinstance(self.body, PostWebhookUnblockerBodyBodyType1):
            body = self.body.to_dict()
        else:
            body = self.body

        capture_network = self.capture_network

        fill_form: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fill_form, Unset):
            fill_form = self.fill_form.to_dict()

        wait_for = self.wait_for

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        async_ = self.async_

        formats: list[dict[str, Any] | str] | Unset = UNSET
        if not isinstance(self.formats, Unset):
            formats = []
            for formats_item_data in self.formats:
                formats_item: dict[str, Any] | str
                if isinstance(
                    formats_item_data, PostWebhookUnblockerBodyFormatsItemType0
                ):
                    formats_item = formats_item_data.value
                elif isinstance(
                    formats_item_data, PostWebhookUnblockerBodyFormatsItemType1Type0
                ):
                    formats_item = formats_item_data.to_dict()
                else:
                    formats_item = formats_item_data.to_dict()

                formats.append(formats_item)

        only_main_content = self.only_main_content

        include_heading = self.include_heading

        include_tags: list[str] | Unset = UNSET
        if not isinstance(self.include_tags, Unset):
            include_tags = self.include_tags

        exclude_tags: list[str] | Unset = UNSET
        if not isinstance(self.exclude_tags, Unset):
            exclude_tags = self.exclude_tags

        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        proxy: str | Unset = UNSET
        if not isinstance(self.proxy, Unset):
            proxy = self.proxy.value

        proxy_tier: str | Unset = UNSET
        if not isinstance(self.proxy_tier, Unset):
            proxy_tier = self.proxy_tier.value

        country = self.country

        block_detection = self.block_detection

        cookies: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.cookies, Unset):
            cookies = []
            for cookies_item_data in self.cookies:
                cookies_item = cookies_item_data.to_dict()
                cookies.append(cookies_item)

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        document: dict[str, Any] | Unset = UNSET
        if not isinstance(self.document, Unset):
            document = self.document.to_dict()

        actions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = []
            for actions_item_data in self.actions:
                actions_item: dict[str, Any]
                if (
                    isinstance(actions_item_data, ScrapeActionType0)
                    or isinstance(actions_item_data, ScrapeActionType1)
                    or isinstance(actions_item_data, ScrapeActionType2)
                    or isinstance(actions_item_data, ScrapeActionType3)
                    or isinstance(actions_item_data, ScrapeActionType4)
                    or isinstance(actions_item_data, ScrapeActionType5)
                    or isinstance(actions_item_data, ScrapeActionType6)
                ):
                    actions_item = actions_item_data.to_dict()
                else:
                    actions_item = actions_item_data.to_dict()

                actions.append(actions_item)

        mobile = self.mobile

        skip_tls_verification = self.skip_tls_verification

        max_age = self.max_age

        store_in_cache = self.store_in_cache

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if selectors is not UNSET:
            field_dict["selectors"] = selectors
        if mode is not UNSET:
            field_dict["mode"] = mode
        if method is not UNSET:
            field_dict["method"] = method
        if headers is not UNSET:
            field_dict["headers"] = headers
        if body is not UNSET:
            field_dict["body"] = body
        if capture_network is not UNSET:
            field_dict["capture_network"] = capture_network
        if fill_form is not UNSET:
            field_dict["fill_form"] = fill_form
        if wait_for is not UNSET:
            field_dict["wait_for"] = wait_for
        if options is not UNSET:
            field_dict["options"] = options
        if async_ is not UNSET:
            field_dict["async"] = async_
        if formats is not UNSET:
            field_dict["formats"] = formats
        if only_main_content is not UNSET:
            field_dict["only_main_content"] = only_main_content
        if include_heading is not UNSET:
            field_dict["include_heading"] = include_heading
        if include_tags is not UNSET:
            field_dict["include_tags"] = include_tags
        if exclude_tags is not UNSET:
            field_dict["exclude_tags"] = exclude_tags
        if webhook is not UNSET:
            field_dict["webhook"] = webhook
        if proxy is not UNSET:
            field_dict["proxy"] = proxy
        if proxy_tier is not UNSET:
            field_dict["proxy_tier"] = proxy_tier
        if country is not UNSET:
            field_dict["country"] = country
        if block_detection is not UNSET:
            field_dict["block_detection"] = block_detection
        if cookies is not UNSET:
            field_dict["cookies"] = cookies
        if session is not UNSET:
            field_dict["session"] = session
        if document is not UNSET:
            field_dict["document"] = document
        if actions is not UNSET:
            field_dict["actions"] = actions
        if mobile is not UNSET:
            field_dict["mobile"] = mobile
        if skip_tls_verification is not UNSET:
            field_dict["skip_tls_verification"] = skip_tls_verification
        if max_age is not UNSET:
            field_dict["max_age"] = max_age
        if store_in_cache is not UNSET:
            field_dict["store_in_cache"] = store_in_cache

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_webhook_unblocker_body_body_type_1 import (
            PostWebhookUnblockerBodyBodyType1,
        )
        from ..models.post_webhook_unblocker_body_cookies_item import (
            PostWebhookUnblockerBodyCookiesItem,
        )
        from ..models.post_webhook_unblocker_body_document import (
            PostWebhookUnblockerBodyDocument,
        )
        from ..models.post_webhook_unblocker_body_fill_form import (
            PostWebhookUnblockerBodyFillForm,
        )
        from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0 import (
            PostWebhookUnblockerBodyFormatsItemType1Type0,
        )
        from ..models.post_webhook_unblocker_body_formats_item_type_1_type_1 import (
            PostWebhookUnblockerBodyFormatsItemType1Type1,
        )
        from ..models.post_webhook_unblocker_body_headers import (
            PostWebhookUnblockerBodyHeaders,
        )
        from ..models.post_webhook_unblocker_body_options import (
            PostWebhookUnblockerBodyOptions,
        )
        from ..models.post_webhook_unblocker_body_selectors_item_type_1 import (
            PostWebhookUnblockerBodySelectorsItemType1,
        )
        from ..models.post_webhook_unblocker_body_session import (
            PostWebhookUnblockerBodySession,
        )
        from ..models.post_webhook_unblocker_body_webhook import (
            PostWebhookUnblockerBodyWebhook,
        )
        from ..models.scrape_action_type_0 import ScrapeActionType0
        from ..models.scrape_action_type_1 import ScrapeActionType1
        from ..models.scrape_action_type_2 import ScrapeActionType2
        from ..models.scrape_action_type_3 import ScrapeActionType3
        from ..models.scrape_action_type_4 import ScrapeActionType4
        from ..models.scrape_action_type_5 import ScrapeActionType5
        from ..models.scrape_action_type_6 import ScrapeActionType6
        from ..models.scrape_action_type_7 import ScrapeActionType7

        d = dict(src_dict)
        url = d.pop("url")

        _selectors = d.pop("selectors", UNSET)
        selectors: list[PostWebhookUnblockerBodySelectorsItemType1 | str] | Unset = (
            UNSET
        )
        if _selectors is not UNSET:
            selectors = []
            for selectors_item_data in _selectors:

                def _parse_selectors_item(
                    data: object,
                ) -> PostWebhookUnblockerBodySelectorsItemType1 | str:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        selectors_item_type_1 = (
                            PostWebhookUnblockerBodySelectorsItemType1.from_dict(data)
                        )

                        return selectors_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(PostWebhookUnblockerBodySelectorsItemType1 | str, data)

                selectors_item = _parse_selectors_item(selectors_item_data)

                selectors.append(selectors_item)

        _mode = d.pop("mode", UNSET)
        mode: PostWebhookUnblockerBodyMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = PostWebhookUnblockerBodyMode(_mode)

        _method = d.pop("method", UNSET)
        method: PostWebhookUnblockerBodyMethod | Unset
        if isinstance(_method, Unset):
            method = UNSET
        else:
            method = PostWebhookUnblockerBodyMethod(_method)

        _headers = d.pop("headers", UNSET)
        headers: PostWebhookUnblockerBodyHeaders | Unset
        if isinstance(_headers, Unset):
            headers = UNSET
        else:
            headers = PostWebhookUnblockerBodyHeaders.from_dict(_headers)

        def _parse_body(
            data: object,
        ) -> PostWebhookUnblockerBodyBodyType1 | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                body_type_1 = PostWebhookUnblockerBodyBodyType1.from_dict(data)

                return body_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(PostWebhookUnblockerBodyBodyType1 | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        capture_network = d.pop("capture_network", UNSET)

        _fill_form = d.pop("fill_form", UNSET)
        fill_form: PostWebhookUnblockerBodyFillForm | Unset
        if isinstance(_fill_form, Unset):
            fill_form = UNSET
        else:
            fill_form = PostWebhookUnblockerBodyFillForm.from_dict(_fill_form)

        wait_for = d.pop("wait_for", UNSET)

        _options = d.pop("options", UNSET)
        options: PostWebhookUnblockerBodyOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = PostWebhookUnblockerBodyOptions.from_dict(_options)

        async_ = d.pop("async", UNSET)

        _formats = d.pop("formats", UNSET)
        formats: (
            list[
                PostWebhookUnblockerBodyFormatsItemType0
                | PostWebhookUnblockerBodyFormatsItemType1Type0
                | PostWebhookUnblockerBodyFormatsItemType1Type1
            ]
            | Unset
        ) = UNSET
        if _formats is not UNSET:
            formats = []
            for formats_item_data in _formats:

                def _parse_formats_item(
                    data: object,
                ) -> (
                    PostWebhookUnblockerBodyFormatsItemType0
                    | PostWebhookUnblockerBodyFormatsItemType1Type0
                    | PostWebhookUnblockerBodyFormatsItemType1Type1
                ):
                    try:
                        if not isinstance(data, str):
                            raise TypeError()
                        formats_item_type_0 = PostWebhookUnblockerBodyFormatsItemType0(
                            data
                        )

                        return formats_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        formats_item_type_1_type_0 = (
                            PostWebhookUnblockerBodyFormatsItemType1Type0.from_dict(
                                data
                            )
                        )

                        return formats_item_type_1_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    formats_item_type_1_type_1 = (
                        PostWebhookUnblockerBodyFormatsItemType1Type1.from_dict(data)
                    )

                    return formats_item_type_1_type_1

                formats_item = _parse_formats_item(formats_item_data)

                formats.append(formats_item)

        only_main_content = d.pop("only_main_content", UNSET)

        include_heading = d.pop("include_heading", UNSET)

        include_tags = cast(list[str], d.pop("include_tags", UNSET))

        exclude_tags = cast(list[str], d.pop("exclude_tags", UNSET))

        _webhook = d.pop("webhook", UNSET)
        webhook: PostWebhookUnblockerBodyWebhook | Unset
        if isinstance(_webhook, Unset):
            webhook = UNSET
        else:
            webhook = PostWebhookUnblockerBodyWebhook.from_dict(_webhook)

        _proxy = d.pop("proxy", UNSET)
        proxy: PostWebhookUnblockerBodyProxy | Unset
        if isinstance(_proxy, Unset):
            proxy = UNSET
        else:
            proxy = PostWebhookUnblockerBodyProxy(_proxy)

        _proxy_tier = d.pop("proxy_tier", UNSET)
        proxy_tier: PostWebhookUnblockerBodyProxyTier | Unset
        if isinstance(_proxy_tier, Unset):
            proxy_tier = UNSET
        else:
            proxy_tier = PostWebhookUnblockerBodyProxyTier(_proxy_tier)

        country = d.pop("country", UNSET)

        block_detection = d.pop("block_detection", UNSET)

        _cookies = d.pop("cookies", UNSET)
        cookies: list[PostWebhookUnblockerBodyCookiesItem] | Unset = UNSET
        if _cookies is not UNSET:
            cookies = []
            for cookies_item_data in _cookies:
                cookies_item = PostWebhookUnblockerBodyCookiesItem.from_dict(
                    cookies_item_data
                )

                cookies.append(cookies_item)

        _session = d.pop("session", UNSET)
        session: PostWebhookUnblockerBodySession | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = PostWebhookUnblockerBodySession.from_dict(_session)

        _document = d.pop("document", UNSET)
        document: PostWebhookUnblockerBodyDocument | Unset
        if isinstance(_document, Unset):
            document = UNSET
        else:
            document = PostWebhookUnblockerBodyDocument.from_dict(_document)

        _actions = d.pop("actions", UNSET)
        actions: (
            list[
                ScrapeActionType0
                | ScrapeActionType1
                | ScrapeActionType2
                | ScrapeActionType3
                | ScrapeActionType4
                | ScrapeActionType5
                | ScrapeActionType6
                | ScrapeActionType7
            ]
            | Unset
        ) = UNSET
        if _actions is not UNSET:
            actions = []
            for actions_item_data in _actions:

                def _parse_actions_item(
                    data: object,
                ) -> (
                    ScrapeActionType0
                    | ScrapeActionType1
                    | ScrapeActionType2
                    | ScrapeActionType3
                    | ScrapeActionType4
                    | ScrapeActionType5
                    | ScrapeActionType6
                    | ScrapeActionType7
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_0 = (
                            ScrapeActionType0.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_1 = (
                            ScrapeActionType1.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_2 = (
                            ScrapeActionType2.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_3 = (
                            ScrapeActionType3.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_3
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_4 = (
                            ScrapeActionType4.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_4
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_5 = (
                            ScrapeActionType5.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_5
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_scrape_action_type_6 = (
                            ScrapeActionType6.from_dict(data)
                        )

                        return componentsschemas_scrape_action_type_6
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_scrape_action_type_7 = (
                        ScrapeActionType7.from_dict(data)
                    )

                    return componentsschemas_scrape_action_type_7

                actions_item = _parse_actions_item(actions_item_data)

                actions.append(actions_item)

        mobile = d.pop("mobile", UNSET)

        skip_tls_verification = d.pop("skip_tls_verification", UNSET)

        max_age = d.pop("max_age", UNSET)

        store_in_cache = d.pop("store_in_cache", UNSET)

        post_webhook_unblocker_body = cls(
            url=url,
            selectors=selectors,
            mode=mode,
            method=method,
            headers=headers,
            body=body,
            capture_network=capture_network,
            fill_form=fill_form,
            wait_for=wait_for,
            options=options,
            async_=async_,
            formats=formats,
            only_main_content=only_main_content,
            include_heading=include_heading,
            include_tags=include_tags,
            exclude_tags=exclude_tags,
            webhook=webhook,
            proxy=proxy,
            proxy_tier=proxy_tier,
            country=country,
            block_detection=block_detection,
            cookies=cookies,
            session=session,
            document=document,
            actions=actions,
            mobile=mobile,
            skip_tls_verification=skip_tls_verification,
            max_age=max_age,
            store_in_cache=store_in_cache,
        )

        return post_webhook_unblocker_body
