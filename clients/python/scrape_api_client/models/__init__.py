"""Contains all the data models used in inputs/outputs"""

from .api_key import ApiKey
from .auth_library_error import AuthLibraryError
from .consent_record import ConsentRecord
from .crawl import Crawl
from .crawl_kind import CrawlKind
from .crawl_links import CrawlLinks
from .crawl_page import CrawlPage
from .crawl_page_error import CrawlPageError
from .crawl_page_status import CrawlPageStatus
from .crawl_pages import CrawlPages
from .crawl_queued import CrawlQueued
from .crawl_queued_kind import CrawlQueuedKind
from .crawl_queued_links import CrawlQueuedLinks
from .crawl_queued_status import CrawlQueuedStatus
from .crawl_status import CrawlStatus
from .crawl_summary import CrawlSummary
from .crawl_summary_kind import CrawlSummaryKind
from .crawl_summary_links import CrawlSummaryLinks
from .crawl_summary_status import CrawlSummaryStatus
from .delete_v1_batch_scrape_id_response_200 import DeleteV1BatchScrapeIdResponse200
from .delete_v1_crawl_id_errors_response_200 import DeleteV1CrawlIdErrorsResponse200
from .delete_v1_crawl_id_errors_response_200_errors_item import (
    DeleteV1CrawlIdErrorsResponse200ErrorsItem,
)
from .delete_v1_crawl_id_response_200 import DeleteV1CrawlIdResponse200
from .delete_v2_batch_scrape_id_response_200 import DeleteV2BatchScrapeIdResponse200
from .delete_v2_crawl_id_response_200 import DeleteV2CrawlIdResponse200
from .error_body import ErrorBody
from .error_body_code import ErrorBodyCode
from .firecrawl_document import FirecrawlDocument
from .firecrawl_document_actions import FirecrawlDocumentActions
from .firecrawl_document_actions_javascript_returns_item import (
    FirecrawlDocumentActionsJavascriptReturnsItem,
)
from .firecrawl_document_actions_scrapes_item import FirecrawlDocumentActionsScrapesItem
from .firecrawl_error import FirecrawlError
from .firecrawl_error_details_type_0 import FirecrawlErrorDetailsType0
from .firecrawl_map_request import FirecrawlMapRequest
from .firecrawl_map_request_sitemap import FirecrawlMapRequestSitemap
from .firecrawl_metadata import FirecrawlMetadata
from .firecrawl_metadata_cache_state import FirecrawlMetadataCacheState
from .firecrawl_metadata_proxy_used import FirecrawlMetadataProxyUsed
from .firecrawl_search_request import FirecrawlSearchRequest
from .firecrawl_search_request_scrape_options import FirecrawlSearchRequestScrapeOptions
from .firecrawl_search_request_sources_item_type_1 import (
    FirecrawlSearchRequestSourcesItemType1,
)
from .firecrawl_v1_map_response import FirecrawlV1MapResponse
from .firecrawl_v1_scrape_request import FirecrawlV1ScrapeRequest
from .firecrawl_v1_scrape_request_extract_options import (
    FirecrawlV1ScrapeRequestExtractOptions,
)
from .firecrawl_v1_scrape_request_extract_options_schema import (
    FirecrawlV1ScrapeRequestExtractOptionsSchema,
)
from .firecrawl_v1_scrape_request_headers import FirecrawlV1ScrapeRequestHeaders
from .firecrawl_v1_scrape_request_json_options import (
    FirecrawlV1ScrapeRequestJsonOptions,
)
from .firecrawl_v1_scrape_request_json_options_schema import (
    FirecrawlV1ScrapeRequestJsonOptionsSchema,
)
from .firecrawl_v1_scrape_request_location import FirecrawlV1ScrapeRequestLocation
from .firecrawl_v1_scrape_request_mode import FirecrawlV1ScrapeRequestMode
from .firecrawl_v1_scrape_request_parsers_item_type_1 import (
    FirecrawlV1ScrapeRequestParsersItemType1,
)
from .firecrawl_v1_scrape_request_session import FirecrawlV1ScrapeRequestSession
from .firecrawl_v1_scrape_response import FirecrawlV1ScrapeResponse
from .firecrawl_v2_map_response import FirecrawlV2MapResponse
from .firecrawl_v2_map_response_links_item import FirecrawlV2MapResponseLinksItem
from .firecrawl_v2_scrape_request import FirecrawlV2ScrapeRequest
from .firecrawl_v2_scrape_request_extract_options import (
    FirecrawlV2ScrapeRequestExtractOptions,
)
from .firecrawl_v2_scrape_request_extract_options_schema import (
    FirecrawlV2ScrapeRequestExtractOptionsSchema,
)
from .firecrawl_v2_scrape_request_formats_item_type_1 import (
    FirecrawlV2ScrapeRequestFormatsItemType1,
)
from .firecrawl_v2_scrape_request_formats_item_type_1_schema import (
    FirecrawlV2ScrapeRequestFormatsItemType1Schema,
)
from .firecrawl_v2_scrape_request_headers import FirecrawlV2ScrapeRequestHeaders
from .firecrawl_v2_scrape_request_json_options import (
    FirecrawlV2ScrapeRequestJsonOptions,
)
from .firecrawl_v2_scrape_request_json_options_schema import (
    FirecrawlV2ScrapeRequestJsonOptionsSchema,
)
from .firecrawl_v2_scrape_request_location import FirecrawlV2ScrapeRequestLocation
from .firecrawl_v2_scrape_request_mode import FirecrawlV2ScrapeRequestMode
from .firecrawl_v2_scrape_request_parsers_item_type_1 import (
    FirecrawlV2ScrapeRequestParsersItemType1,
)
from .firecrawl_v2_scrape_request_session import FirecrawlV2ScrapeRequestSession
from .firecrawl_v2_scrape_response import FirecrawlV2ScrapeResponse
from .flow import Flow
from .flow_body import FlowBody
from .flow_body_nodes_item import FlowBodyNodesItem
from .flow_body_nodes_item_config import FlowBodyNodesItemConfig
from .flow_body_nodes_item_type import FlowBodyNodesItemType
from .flow_input_accepted import FlowInputAccepted
from .flow_input_accepted_links import FlowInputAcceptedLinks
from .flow_nodes_item import FlowNodesItem
from .flow_nodes_item_config import FlowNodesItemConfig
from .flow_patch import FlowPatch
from .flow_patch_nodes_item import FlowPatchNodesItem
from .flow_patch_nodes_item_config import FlowPatchNodesItemConfig
from .flow_patch_nodes_item_type import FlowPatchNodesItemType
from .flow_run import FlowRun
from .flow_run_credits import FlowRunCredits
from .flow_run_links import FlowRunLinks
from .flow_run_nodes_item import FlowRunNodesItem
from .flow_run_status import FlowRunStatus
from .flow_run_summary import FlowRunSummary
from .flow_run_summary_links import FlowRunSummaryLinks
from .flow_run_summary_status import FlowRunSummaryStatus
from .get_api_auth_get_session_response_200_type_0 import (
    GetApiAuthGetSessionResponse200Type0,
)
from .get_api_auth_get_session_response_200_type_0_session import (
    GetApiAuthGetSessionResponse200Type0Session,
)
from .get_api_auth_get_session_response_200_type_0_user import (
    GetApiAuthGetSessionResponse200Type0User,
)
from .get_api_consent_response_200 import GetApiConsentResponse200
from .get_api_consent_response_200_current import GetApiConsentResponse200Current
from .get_api_consent_response_200_versions import GetApiConsentResponse200Versions
from .get_api_notifications_response_200 import GetApiNotificationsResponse200
from .get_api_notifications_unread import GetApiNotificationsUnread
from .get_api_payments_packs_response_200 import GetApiPaymentsPacksResponse200
from .get_api_payments_packs_response_200_packs_item import (
    GetApiPaymentsPacksResponse200PacksItem,
)
from .get_api_payments_response_200 import GetApiPaymentsResponse200
from .get_api_subscriptions_plans_response_200 import (
    GetApiSubscriptionsPlansResponse200,
)
from .get_api_subscriptions_plans_response_200_plans_item import (
    GetApiSubscriptionsPlansResponse200PlansItem,
)
from .get_api_subscriptions_response_200 import GetApiSubscriptionsResponse200
from .get_api_users_api_keys_response_200 import GetApiUsersApiKeysResponse200
from .get_api_users_api_keys_stats_response_200 import (
    GetApiUsersApiKeysStatsResponse200,
)
from .get_api_users_export_response_200 import GetApiUsersExportResponse200
from .get_api_users_scrape_runs_response_200 import GetApiUsersScrapeRunsResponse200
from .get_api_users_session_response_200 import GetApiUsersSessionResponse200
from .get_api_users_session_response_200_session import (
    GetApiUsersSessionResponse200Session,
)
from .get_api_users_session_response_200_user import GetApiUsersSessionResponse200User
from .get_api_webhook_deliveries_response_200 import GetApiWebhookDeliveriesResponse200
from .get_api_webhook_secret_response_200 import GetApiWebhookSecretResponse200
from .get_api_webhooks_id_deliveries_response_200 import (
    GetApiWebhooksIdDeliveriesResponse200,
)
from .get_api_webhooks_response_200 import GetApiWebhooksResponse200
from .get_crawl_id_pages_status import GetCrawlIdPagesStatus
from .get_crawl_response_200 import GetCrawlResponse200
from .get_flows_id_runs_response_200 import GetFlowsIdRunsResponse200
from .get_flows_response_200 import GetFlowsResponse200
from .get_flows_runs_waiting_response_200 import GetFlowsRunsWaitingResponse200
from .get_healthz_response_200 import GetHealthzResponse200
from .get_monitors_id_checks_response_200 import GetMonitorsIdChecksResponse200
from .get_monitors_response_200 import GetMonitorsResponse200
from .get_openapi_json_response_200 import GetOpenapiJsonResponse200
from .get_pricing_response_200 import GetPricingResponse200
from .get_pricing_response_200_cache import GetPricingResponse200Cache
from .get_pricing_response_200_documents import GetPricingResponse200Documents
from .get_pricing_response_200_flow_nodes import GetPricingResponse200FlowNodes
from .get_pricing_response_200_jobs import GetPricingResponse200Jobs
from .get_pricing_response_200_proxy_tiers import GetPricingResponse200ProxyTiers
from .get_pricing_response_200_proxy_tiers_tiers import (
    GetPricingResponse200ProxyTiersTiers,
)
from .get_pricing_response_200_scrape import GetPricingResponse200Scrape
from .get_pricing_response_200_scrape_extras import GetPricingResponse200ScrapeExtras
from .get_pricing_response_200_scrape_modes import GetPricingResponse200ScrapeModes
from .get_pricing_response_200_search import GetPricingResponse200Search
from .get_readyz_response_200 import GetReadyzResponse200
from .get_readyz_response_200_checks import GetReadyzResponse200Checks
from .get_readyz_response_503 import GetReadyzResponse503
from .get_readyz_response_503_checks import GetReadyzResponse503Checks
from .get_readyz_response_503_code import GetReadyzResponse503Code
from .get_readyz_response_503_status import GetReadyzResponse503Status
from .get_sessions_response_200 import GetSessionsResponse200
from .get_user_templates_response_200 import GetUserTemplatesResponse200
from .get_v1_batch_scrape_id_errors_response_200 import (
    GetV1BatchScrapeIdErrorsResponse200,
)
from .get_v1_batch_scrape_id_errors_response_200_errors_item import (
    GetV1BatchScrapeIdErrorsResponse200ErrorsItem,
)
from .get_v1_batch_scrape_id_response_200 import GetV1BatchScrapeIdResponse200
from .get_v1_batch_scrape_id_response_200_status import (
    GetV1BatchScrapeIdResponse200Status,
)
from .get_v1_crawl_id_errors_response_200 import GetV1CrawlIdErrorsResponse200
from .get_v1_crawl_id_errors_response_200_errors_item import (
    GetV1CrawlIdErrorsResponse200ErrorsItem,
)
from .get_v1_crawl_id_response_200 import GetV1CrawlIdResponse200
from .get_v1_crawl_id_response_200_status import GetV1CrawlIdResponse200Status
from .get_v1_extract_id_response_200 import GetV1ExtractIdResponse200
from .get_v1_extract_id_response_200_sources import GetV1ExtractIdResponse200Sources
from .get_v1_extract_id_response_200_status import GetV1ExtractIdResponse200Status
from .get_v1_team_credit_usage_response_200 import GetV1TeamCreditUsageResponse200
from .get_v1_team_credit_usage_response_200_data import (
    GetV1TeamCreditUsageResponse200Data,
)
from .get_v1_team_queue_status_response_200 import GetV1TeamQueueStatusResponse200
from .get_v1_team_token_usage_response_200 import GetV1TeamTokenUsageResponse200
from .get_v1_team_token_usage_response_200_data import (
    GetV1TeamTokenUsageResponse200Data,
)
from .get_v2_batch_scrape_id_errors_response_200 import (
    GetV2BatchScrapeIdErrorsResponse200,
)
from .get_v2_batch_scrape_id_errors_response_200_errors_item import (
    GetV2BatchScrapeIdErrorsResponse200ErrorsItem,
)
from .get_v2_batch_scrape_id_response_200 import GetV2BatchScrapeIdResponse200
from .get_v2_batch_scrape_id_response_200_status import (
    GetV2BatchScrapeIdResponse200Status,
)
from .get_v2_concurrency_check_response_200 import GetV2ConcurrencyCheckResponse200
from .get_v2_crawl_active_response_200 import GetV2CrawlActiveResponse200
from .get_v2_crawl_active_response_200_crawls_item import (
    GetV2CrawlActiveResponse200CrawlsItem,
)
from .get_v2_crawl_active_response_200_crawls_item_options_type_0 import (
    GetV2CrawlActiveResponse200CrawlsItemOptionsType0,
)
from .get_v2_crawl_id_errors_response_200 import GetV2CrawlIdErrorsResponse200
from .get_v2_crawl_id_errors_response_200_errors_item import (
    GetV2CrawlIdErrorsResponse200ErrorsItem,
)
from .get_v2_crawl_id_response_200 import GetV2CrawlIdResponse200
from .get_v2_crawl_id_response_200_status import GetV2CrawlIdResponse200Status
from .get_v2_extract_id_response_200 import GetV2ExtractIdResponse200
from .get_v2_extract_id_response_200_sources import GetV2ExtractIdResponse200Sources
from .get_v2_extract_id_response_200_status import GetV2ExtractIdResponse200Status
from .get_v2_parse_formats_response_200 import GetV2ParseFormatsResponse200
from .get_v2_parse_formats_response_200_data import GetV2ParseFormatsResponse200Data
from .get_v2_parse_formats_response_200_data_formats_item import (
    GetV2ParseFormatsResponse200DataFormatsItem,
)
from .get_v2_team_credit_usage_response_200 import GetV2TeamCreditUsageResponse200
from .get_v2_team_credit_usage_response_200_data import (
    GetV2TeamCreditUsageResponse200Data,
)
from .get_v2_team_queue_status_response_200 import GetV2TeamQueueStatusResponse200
from .get_v2_team_token_usage_response_200 import GetV2TeamTokenUsageResponse200
from .get_v2_team_token_usage_response_200_data import (
    GetV2TeamTokenUsageResponse200Data,
)
from .get_webhook_whoami_response_200 import GetWebhookWhoamiResponse200
from .map_result import MapResult
from .map_result_credits import MapResultCredits
from .monitor import Monitor
from .monitor_check import MonitorCheck
from .monitor_check_diff import MonitorCheckDiff
from .monitor_check_diff_diff_type_0 import MonitorCheckDiffDiffType0
from .monitor_check_diff_type_0 import MonitorCheckDiffType0
from .monitor_check_error_type_0 import MonitorCheckErrorType0
from .monitor_check_status import MonitorCheckStatus
from .monitor_check_with_snapshot import MonitorCheckWithSnapshot
from .monitor_check_with_snapshot_diff_type_0 import MonitorCheckWithSnapshotDiffType0
from .monitor_check_with_snapshot_error_type_0 import MonitorCheckWithSnapshotErrorType0
from .monitor_check_with_snapshot_status import MonitorCheckWithSnapshotStatus
from .monitor_compare import MonitorCompare
from .monitor_ignore import MonitorIgnore
from .monitor_request import MonitorRequest
from .monitor_schedule import MonitorSchedule
from .notification import Notification
from .patch_api_subscriptions_current_body import PatchApiSubscriptionsCurrentBody
from .patch_api_subscriptions_current_response_200 import (
    PatchApiSubscriptionsCurrentResponse200,
)
from .patch_api_subscriptions_current_response_202 import (
    PatchApiSubscriptionsCurrentResponse202,
)
from .patch_monitors_id_body import PatchMonitorsIdBody
from .patch_monitors_id_body_compare import PatchMonitorsIdBodyCompare
from .patch_monitors_id_body_ignore import PatchMonitorsIdBodyIgnore
from .patch_monitors_id_body_request import PatchMonitorsIdBodyRequest
from .patch_monitors_id_body_schedule_type_0 import PatchMonitorsIdBodyScheduleType0
from .patch_monitors_id_body_schedule_type_1 import PatchMonitorsIdBodyScheduleType1
from .patch_user_templates_id_body import PatchUserTemplatesIdBody
from .patch_user_templates_id_body_params_item import PatchUserTemplatesIdBodyParamsItem
from .patch_user_templates_id_body_params_item_type import (
    PatchUserTemplatesIdBodyParamsItemType,
)
from .patch_user_templates_id_body_request import PatchUserTemplatesIdBodyRequest
from .payment import Payment
from .post_api_auth_sign_in_email_body import PostApiAuthSignInEmailBody
from .post_api_auth_sign_in_email_response_200 import PostApiAuthSignInEmailResponse200
from .post_api_auth_sign_in_email_response_200_user import (
    PostApiAuthSignInEmailResponse200User,
)
from .post_api_auth_sign_out_response_200 import PostApiAuthSignOutResponse200
from .post_api_auth_sign_up_email_body import PostApiAuthSignUpEmailBody
from .post_api_auth_sign_up_email_response_200 import PostApiAuthSignUpEmailResponse200
from .post_api_auth_sign_up_email_response_200_user import (
    PostApiAuthSignUpEmailResponse200User,
)
from .post_api_consent_body import PostApiConsentBody
from .post_api_consent_body_kind import PostApiConsentBodyKind
from .post_api_consent_response_201 import PostApiConsentResponse201
from .post_api_consent_response_201_current import PostApiConsentResponse201Current
from .post_api_notifications_id_read_response_200 import (
    PostApiNotificationsIdReadResponse200,
)
from .post_api_notifications_read_all_response_200 import (
    PostApiNotificationsReadAllResponse200,
)
from .post_api_payments_body import PostApiPaymentsBody
from .post_api_payments_id_local_webhook_body import PostApiPaymentsIdLocalWebhookBody
from .post_api_payments_id_local_webhook_body_outcome import (
    PostApiPaymentsIdLocalWebhookBodyOutcome,
)
from .post_api_payments_id_local_webhook_response_200 import (
    PostApiPaymentsIdLocalWebhookResponse200,
)
from .post_api_payments_id_local_webhook_response_200_headers import (
    PostApiPaymentsIdLocalWebhookResponse200Headers,
)
from .post_api_payments_webhook_provider_response_200 import (
    PostApiPaymentsWebhookProviderResponse200,
)
from .post_api_subscriptions_body import PostApiSubscriptionsBody
from .post_api_subscriptions_current_cancel_response_200 import (
    PostApiSubscriptionsCurrentCancelResponse200,
)
from .post_api_subscriptions_response_201 import PostApiSubscriptionsResponse201
from .post_api_subscriptions_response_202 import PostApiSubscriptionsResponse202
from .post_api_users_create_api_keys_body import PostApiUsersCreateApiKeysBody
from .post_api_users_create_api_keys_response_201 import (
    PostApiUsersCreateApiKeysResponse201,
)
from .post_api_webhook_secret_rotate_response_200 import (
    PostApiWebhookSecretRotateResponse200,
)
from .post_api_webhooks_body import PostApiWebhooksBody
from .post_api_webhooks_body_events_item import PostApiWebhooksBodyEventsItem
from .post_api_webhooks_response_201 import PostApiWebhooksResponse201
from .post_api_webhooks_response_201_events_item import (
    PostApiWebhooksResponse201EventsItem,
)
from .post_batch_scrape_body import PostBatchScrapeBody
from .post_batch_scrape_body_scrape import PostBatchScrapeBodyScrape
from .post_batch_scrape_body_webhook import PostBatchScrapeBodyWebhook
from .post_batch_scrape_body_webhook_events_item import (
    PostBatchScrapeBodyWebhookEventsItem,
)
from .post_batch_scrape_body_webhook_metadata import PostBatchScrapeBodyWebhookMetadata
from .post_crawl_body import PostCrawlBody
from .post_crawl_body_scrape import PostCrawlBodyScrape
from .post_crawl_body_sitemap import PostCrawlBodySitemap
from .post_crawl_body_webhook import PostCrawlBodyWebhook
from .post_crawl_body_webhook_events_item import PostCrawlBodyWebhookEventsItem
from .post_crawl_body_webhook_metadata import PostCrawlBodyWebhookMetadata
from .post_documents_body import PostDocumentsBody
from .post_flows_id_runs_body import PostFlowsIdRunsBody
from .post_flows_id_runs_body_webhook import PostFlowsIdRunsBodyWebhook
from .post_flows_id_runs_body_webhook_events_item import (
    PostFlowsIdRunsBodyWebhookEventsItem,
)
from .post_flows_id_runs_body_webhook_metadata import PostFlowsIdRunsBodyWebhookMetadata
from .post_flows_id_runs_run_id_input_body import PostFlowsIdRunsRunIdInputBody
from .post_map_body import PostMapBody
from .post_map_body_sitemap import PostMapBodySitemap
from .post_monitors_body import PostMonitorsBody
from .post_monitors_body_compare import PostMonitorsBodyCompare
from .post_monitors_body_ignore import PostMonitorsBodyIgnore
from .post_monitors_body_request import PostMonitorsBodyRequest
from .post_monitors_body_schedule_type_0 import PostMonitorsBodyScheduleType0
from .post_monitors_body_schedule_type_1 import PostMonitorsBodyScheduleType1
from .post_search_body import PostSearchBody
from .post_search_body_scrape import PostSearchBodyScrape
from .post_search_body_sources_item import PostSearchBodySourcesItem
from .post_search_body_time_range import PostSearchBodyTimeRange
from .post_temporal_codec_decode_body import PostTemporalCodecDecodeBody
from .post_temporal_codec_decode_body_payloads_item import (
    PostTemporalCodecDecodeBodyPayloadsItem,
)
from .post_temporal_codec_decode_body_payloads_item_metadata_type_0 import (
    PostTemporalCodecDecodeBodyPayloadsItemMetadataType0,
)
from .post_temporal_codec_decode_response_200 import PostTemporalCodecDecodeResponse200
from .post_temporal_codec_decode_response_200_payloads_item import (
    PostTemporalCodecDecodeResponse200PayloadsItem,
)
from .post_temporal_codec_decode_response_200_payloads_item_metadata_type_0 import (
    PostTemporalCodecDecodeResponse200PayloadsItemMetadataType0,
)
from .post_temporal_codec_encode_body import PostTemporalCodecEncodeBody
from .post_temporal_codec_encode_body_payloads_item import (
    PostTemporalCodecEncodeBodyPayloadsItem,
)
from .post_temporal_codec_encode_body_payloads_item_metadata_type_0 import (
    PostTemporalCodecEncodeBodyPayloadsItemMetadataType0,
)
from .post_temporal_codec_encode_response_200 import PostTemporalCodecEncodeResponse200
from .post_temporal_codec_encode_response_200_payloads_item import (
    PostTemporalCodecEncodeResponse200PayloadsItem,
)
from .post_temporal_codec_encode_response_200_payloads_item_metadata_type_0 import (
    PostTemporalCodecEncodeResponse200PayloadsItemMetadataType0,
)
from .post_temporal_codec_token_decode_body import PostTemporalCodecTokenDecodeBody
from .post_temporal_codec_token_decode_body_payloads_item import (
    PostTemporalCodecTokenDecodeBodyPayloadsItem,
)
from .post_temporal_codec_token_decode_body_payloads_item_metadata_type_0 import (
    PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0,
)
from .post_temporal_codec_token_decode_response_200 import (
    PostTemporalCodecTokenDecodeResponse200,
)
from .post_temporal_codec_token_decode_response_200_payloads_item import (
    PostTemporalCodecTokenDecodeResponse200PayloadsItem,
)
from .post_temporal_codec_token_decode_response_200_payloads_item_metadata_type_0 import (
    PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0,
)
from .post_temporal_codec_token_encode_body import PostTemporalCodecTokenEncodeBody
from .post_temporal_codec_token_encode_body_payloads_item import (
    PostTemporalCodecTokenEncodeBodyPayloadsItem,
)
from .post_temporal_codec_token_encode_body_payloads_item_metadata_type_0 import (
    PostTemporalCodecTokenEncodeBodyPayloadsItemMetadataType0,
)
from .post_temporal_codec_token_encode_response_200 import (
    PostTemporalCodecTokenEncodeResponse200,
)
from .post_temporal_codec_token_encode_response_200_payloads_item import (
    PostTemporalCodecTokenEncodeResponse200PayloadsItem,
)
from .post_temporal_codec_token_encode_response_200_payloads_item_metadata_type_0 import (
    PostTemporalCodecTokenEncodeResponse200PayloadsItemMetadataType0,
)
from .post_user_templates_body import PostUserTemplatesBody
from .post_user_templates_body_params_item import PostUserTemplatesBodyParamsItem
from .post_user_templates_body_params_item_type import (
    PostUserTemplatesBodyParamsItemType,
)
from .post_user_templates_body_request import PostUserTemplatesBodyRequest
from .post_user_templates_id_run_body import PostUserTemplatesIdRunBody
from .post_user_templates_id_run_body_params import PostUserTemplatesIdRunBodyParams
from .post_v1_batch_scrape_body import PostV1BatchScrapeBody
from .post_v1_batch_scrape_response_200 import PostV1BatchScrapeResponse200
from .post_v1_crawl_body import PostV1CrawlBody
from .post_v1_crawl_response_200 import PostV1CrawlResponse200
from .post_v1_extract_body import PostV1ExtractBody
from .post_v1_extract_body_schema import PostV1ExtractBodySchema
from .post_v1_extract_body_scrape_options import PostV1ExtractBodyScrapeOptions
from .post_v1_extract_response_200 import PostV1ExtractResponse200
from .post_v1_search_response_200 import PostV1SearchResponse200
from .post_v2_batch_scrape_body import PostV2BatchScrapeBody
from .post_v2_batch_scrape_response_200 import PostV2BatchScrapeResponse200
from .post_v2_crawl_body import PostV2CrawlBody
from .post_v2_crawl_params_preview_body import PostV2CrawlParamsPreviewBody
from .post_v2_crawl_params_preview_response_200 import (
    PostV2CrawlParamsPreviewResponse200,
)
from .post_v2_crawl_params_preview_response_200_data import (
    PostV2CrawlParamsPreviewResponse200Data,
)
from .post_v2_crawl_response_200 import PostV2CrawlResponse200
from .post_v2_extract_body import PostV2ExtractBody
from .post_v2_extract_body_schema import PostV2ExtractBodySchema
from .post_v2_extract_body_scrape_options import PostV2ExtractBodyScrapeOptions
from .post_v2_extract_response_200 import PostV2ExtractResponse200
from .post_v2_parse_body import PostV2ParseBody
from .post_v2_parse_response_200 import PostV2ParseResponse200
from .post_v2_search_response_200 import PostV2SearchResponse200
from .post_webhook_unblocker_body import PostWebhookUnblockerBody
from .post_webhook_unblocker_body_body_type_1 import PostWebhookUnblockerBodyBodyType1
from .post_webhook_unblocker_body_cookies_item import (
    PostWebhookUnblockerBodyCookiesItem,
)
from .post_webhook_unblocker_body_cookies_item_same_site import (
    PostWebhookUnblockerBodyCookiesItemSameSite,
)
from .post_webhook_unblocker_body_document import PostWebhookUnblockerBodyDocument
from .post_webhook_unblocker_body_fill_form import PostWebhookUnblockerBodyFillForm
from .post_webhook_unblocker_body_fill_form_fields import (
    PostWebhookUnblockerBodyFillFormFields,
)
from .post_webhook_unblocker_body_formats_item_type_0 import (
    PostWebhookUnblockerBodyFormatsItemType0,
)
from .post_webhook_unblocker_body_formats_item_type_1_type_0 import (
    PostWebhookUnblockerBodyFormatsItemType1Type0,
)
from .post_webhook_unblocker_body_formats_item_type_1_type_0_css import (
    PostWebhookUnblockerBodyFormatsItemType1Type0Css,
)
from .post_webhook_unblocker_body_formats_item_type_1_type_0_schema import (
    PostWebhookUnblockerBodyFormatsItemType1Type0Schema,
)
from .post_webhook_unblocker_body_formats_item_type_1_type_1 import (
    PostWebhookUnblockerBodyFormatsItemType1Type1,
)
from .post_webhook_unblocker_body_headers import PostWebhookUnblockerBodyHeaders
from .post_webhook_unblocker_body_method import PostWebhookUnblockerBodyMethod
from .post_webhook_unblocker_body_mode import PostWebhookUnblockerBodyMode
from .post_webhook_unblocker_body_options import PostWebhookUnblockerBodyOptions
from .post_webhook_unblocker_body_proxy import PostWebhookUnblockerBodyProxy
from .post_webhook_unblocker_body_proxy_tier import PostWebhookUnblockerBodyProxyTier
from .post_webhook_unblocker_body_selectors_item_type_1 import (
    PostWebhookUnblockerBodySelectorsItemType1,
)
from .post_webhook_unblocker_body_session import PostWebhookUnblockerBodySession
from .post_webhook_unblocker_body_webhook import PostWebhookUnblockerBodyWebhook
from .post_webhook_unblocker_body_webhook_events_item import (
    PostWebhookUnblockerBodyWebhookEventsItem,
)
from .post_webhook_unblocker_body_webhook_metadata import (
    PostWebhookUnblockerBodyWebhookMetadata,
)
from .put_sessions_name_body import PutSessionsNameBody
from .put_sessions_name_body_cookies_item import PutSessionsNameBodyCookiesItem
from .put_sessions_name_body_cookies_item_same_site import (
    PutSessionsNameBodyCookiesItemSameSite,
)
from .put_sessions_name_body_origins_item import PutSessionsNameBodyOriginsItem
from .put_sessions_name_body_origins_item_local_storage_item import (
    PutSessionsNameBodyOriginsItemLocalStorageItem,
)
from .queued_run import QueuedRun
from .queued_run_links import QueuedRunLinks
from .queued_run_status import QueuedRunStatus
from .schema_0 import Schema0
from .schema_0_type import Schema0Type
from .scrape_action_type_0 import ScrapeActionType0
from .scrape_action_type_1 import ScrapeActionType1
from .scrape_action_type_2 import ScrapeActionType2
from .scrape_action_type_3 import ScrapeActionType3
from .scrape_action_type_4 import ScrapeActionType4
from .scrape_action_type_4_direction import ScrapeActionType4Direction
from .scrape_action_type_5 import ScrapeActionType5
from .scrape_action_type_6 import ScrapeActionType6
from .scrape_action_type_7 import ScrapeActionType7
from .scrape_result import ScrapeResult
from .scrape_result_actions import ScrapeResultActions
from .scrape_result_actions_javascript_returns_item import (
    ScrapeResultActionsJavascriptReturnsItem,
)
from .scrape_result_actions_scrapes_item import ScrapeResultActionsScrapesItem
from .scrape_result_actions_screenshots_item import ScrapeResultActionsScreenshotsItem
from .scrape_result_cache import ScrapeResultCache
from .scrape_result_cache_state import ScrapeResultCacheState
from .scrape_result_change_tracking import ScrapeResultChangeTracking
from .scrape_result_change_tracking_change_status import (
    ScrapeResultChangeTrackingChangeStatus,
)
from .scrape_result_credits import ScrapeResultCredits
from .scrape_result_escalation_item import ScrapeResultEscalationItem
from .scrape_result_headers import ScrapeResultHeaders
from .scrape_result_links_item import ScrapeResultLinksItem
from .scrape_result_llm_usage import ScrapeResultLlmUsage
from .scrape_result_metadata import ScrapeResultMetadata
from .scrape_result_metadata_document_type import ScrapeResultMetadataDocumentType
from .scrape_result_mode import ScrapeResultMode
from .scrape_result_screenshot import ScrapeResultScreenshot
from .scrape_result_served_by import ScrapeResultServedBy
from .scrape_run import ScrapeRun
from .scrape_run_detail import ScrapeRunDetail
from .scrape_run_detail_error_type_0 import ScrapeRunDetailErrorType0
from .scrape_run_detail_links import ScrapeRunDetailLinks
from .scrape_run_detail_status import ScrapeRunDetailStatus
from .scrape_run_escalation_item import ScrapeRunEscalationItem
from .scrape_run_links import ScrapeRunLinks
from .scrape_run_proxy_attempts_item import ScrapeRunProxyAttemptsItem
from .scrape_run_status import ScrapeRunStatus
from .scrape_run_summary import ScrapeRunSummary
from .scrape_run_summary_error_type_0 import ScrapeRunSummaryErrorType0
from .scrape_run_summary_status import ScrapeRunSummaryStatus
from .search_result import SearchResult
from .search_result_credits import SearchResultCredits
from .search_result_images_item import SearchResultImagesItem
from .search_result_images_item_scrape import SearchResultImagesItemScrape
from .search_result_images_item_scrape_error import SearchResultImagesItemScrapeError
from .search_result_images_item_scrape_result import SearchResultImagesItemScrapeResult
from .search_result_news_item import SearchResultNewsItem
from .search_result_news_item_scrape import SearchResultNewsItemScrape
from .search_result_news_item_scrape_error import SearchResultNewsItemScrapeError
from .search_result_news_item_scrape_result import SearchResultNewsItemScrapeResult
from .search_result_web_item import SearchResultWebItem
from .search_result_web_item_scrape import SearchResultWebItemScrape
from .search_result_web_item_scrape_error import SearchResultWebItemScrapeError
from .search_result_web_item_scrape_result import SearchResultWebItemScrapeResult
from .selector_result import SelectorResult
from .selector_result_results_item import SelectorResultResultsItem
from .selector_result_results_item_attributes import SelectorResultResultsItemAttributes
from .session import Session
from .subscription import Subscription
from .user_template import UserTemplate
from .user_template_params_item import UserTemplateParamsItem
from .user_template_request import UserTemplateRequest
from .waiting_flow_run import WaitingFlowRun
from .waiting_flow_run_links import WaitingFlowRunLinks
from .waiting_flow_run_status import WaitingFlowRunStatus
from .waiting_flow_run_waiting_item import WaitingFlowRunWaitingItem
from .webhook_attempt import WebhookAttempt
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_events_item import WebhookEndpointEventsItem

__all__ = (
    "ApiKey",
    "AuthLibraryError",
    "ConsentRecord",
    "Crawl",
    "CrawlKind",
    "CrawlLinks",
    "CrawlPage",
    "CrawlPageError",
    "CrawlPageStatus",
    "CrawlPages",
    "CrawlQueued",
    "CrawlQueuedKind",
    "CrawlQueuedLinks",
    "CrawlQueuedStatus",
    "CrawlStatus",
    "CrawlSummary",
    "CrawlSummaryKind",
    "CrawlSummaryLinks",
    "CrawlSummaryStatus",
    "DeleteV1BatchScrapeIdResponse200",
    "DeleteV1CrawlIdErrorsResponse200",
    "DeleteV1CrawlIdErrorsResponse200ErrorsItem",
    "DeleteV1CrawlIdResponse200",
    "DeleteV2BatchScrapeIdResponse200",
    "DeleteV2CrawlIdResponse200",
    "ErrorBody",
    "ErrorBodyCode",
    "FirecrawlDocument",
    "FirecrawlDocumentActions",
    "FirecrawlDocumentActionsJavascriptReturnsItem",
    "FirecrawlDocumentActionsScrapesItem",
    "FirecrawlError",
    "FirecrawlErrorDetailsType0",
    "FirecrawlMapRequest",
    "FirecrawlMapRequestSitemap",
    "FirecrawlMetadata",
    "FirecrawlMetadataCacheState",
    "FirecrawlMetadataProxyUsed",
    "FirecrawlSearchRequest",
    "FirecrawlSearchRequestScrapeOptions",
    "FirecrawlSearchRequestSourcesItemType1",
    "FirecrawlV1MapResponse",
    "FirecrawlV1ScrapeRequest",
    "FirecrawlV1ScrapeRequestExtractOptions",
    "FirecrawlV1ScrapeRequestExtractOptionsSchema",
    "FirecrawlV1ScrapeRequestHeaders",
    "FirecrawlV1ScrapeRequestJsonOptions",
    "FirecrawlV1ScrapeRequestJsonOptionsSchema",
    "FirecrawlV1ScrapeRequestLocation",
    "FirecrawlV1ScrapeRequestMode",
    "FirecrawlV1ScrapeRequestParsersItemType1",
    "FirecrawlV1ScrapeRequestSession",
    "FirecrawlV1ScrapeResponse",
    "FirecrawlV2MapResponse",
    "FirecrawlV2MapResponseLinksItem",
    "FirecrawlV2ScrapeRequest",
    "FirecrawlV2ScrapeRequestExtractOptions",
    "FirecrawlV2ScrapeRequestExtractOptionsSchema",
    "FirecrawlV2ScrapeRequestFormatsItemType1",
    "FirecrawlV2ScrapeRequestFormatsItemType1Schema",
    "FirecrawlV2ScrapeRequestHeaders",
    "FirecrawlV2ScrapeRequestJsonOptions",
    "FirecrawlV2ScrapeRequestJsonOptionsSchema",
    "FirecrawlV2ScrapeRequestLocation",
    "FirecrawlV2ScrapeRequestMode",
    "FirecrawlV2ScrapeRequestParsersItemType1",
    "FirecrawlV2ScrapeRequestSession",
    "FirecrawlV2ScrapeResponse",
    "Flow",
    "FlowBody",
    "FlowBodyNodesItem",
    "FlowBodyNodesItemConfig",
    "FlowBodyNodesItemType",
    "FlowInputAccepted",
    "FlowInputAcceptedLinks",
    "FlowNodesItem",
    "FlowNodesItemConfig",
    "FlowPatch",
    "FlowPatchNodesItem",
    "FlowPatchNodesItemConfig",
    "FlowPatchNodesItemType",
    "FlowRun",
    "FlowRunCredits",
    "FlowRunLinks",
    "FlowRunNodesItem",
    "FlowRunStatus",
    "FlowRunSummary",
    "FlowRunSummaryLinks",
    "FlowRunSummaryStatus",
    "GetApiAuthGetSessionResponse200Type0",
    "GetApiAuthGetSessionResponse200Type0Session",
    "GetApiAuthGetSessionResponse200Type0User",
    "GetApiConsentResponse200",
    "GetApiConsentResponse200Current",
    "GetApiConsentResponse200Versions",
    "GetApiNotificationsResponse200",
    "GetApiNotificationsUnread",
    "GetApiPaymentsPacksResponse200",
    "GetApiPaymentsPacksResponse200PacksItem",
    "GetApiPaymentsResponse200",
    "GetApiSubscriptionsPlansResponse200",
    "GetApiSubscriptionsPlansResponse200PlansItem",
    "GetApiSubscriptionsResponse200",
    "GetApiUsersApiKeysResponse200",
    "GetApiUsersApiKeysStatsResponse200",
    "GetApiUsersExportResponse200",
    "GetApiUsersScrapeRunsResponse200",
    "GetApiUsersSessionResponse200",
    "GetApiUsersSessionResponse200Session",
    "GetApiUsersSessionResponse200User",
    "GetApiWebhookDeliveriesResponse200",
    "GetApiWebhookSecretResponse200",
    "GetApiWebhooksIdDeliveriesResponse200",
    "GetApiWebhooksResponse200",
    "GetCrawlIdPagesStatus",
    "GetCrawlResponse200",
    "GetFlowsIdRunsResponse200",
    "GetFlowsResponse200",
    "GetFlowsRunsWaitingResponse200",
    "GetHealthzResponse200",
    "GetMonitorsIdChecksResponse200",
    "GetMonitorsResponse200",
    "GetOpenapiJsonResponse200",
    "GetPricingResponse200",
    "GetPricingResponse200Cache",
    "GetPricingResponse200Documents",
    "GetPricingResponse200FlowNodes",
    "GetPricingResponse200Jobs",
    "GetPricingResponse200ProxyTiers",
    "GetPricingResponse200ProxyTiersTiers",
    "GetPricingResponse200Scrape",
    "GetPricingResponse200ScrapeExtras",
    "GetPricingResponse200ScrapeModes",
    "GetPricingResponse200Search",
    "GetReadyzResponse200",
    "GetReadyzResponse200Checks",
    "GetReadyzResponse503",
    "GetReadyzResponse503Checks",
    "GetReadyzResponse503Code",
    "GetReadyzResponse503Status",
    "GetSessionsResponse200",
    "GetUserTemplatesResponse200",
    "GetV1BatchScrapeIdErrorsResponse200",
    "GetV1BatchScrapeIdErrorsResponse200ErrorsItem",
    "GetV1BatchScrapeIdResponse200",
    "GetV1BatchScrapeIdResponse200Status",
    "GetV1CrawlIdErrorsResponse200",
    "GetV1CrawlIdErrorsResponse200ErrorsItem",
    "GetV1CrawlIdResponse200",
    "GetV1CrawlIdResponse200Status",
    "GetV1ExtractIdResponse200",
    "GetV1ExtractIdResponse200Sources",
    "GetV1ExtractIdResponse200Status",
    "GetV1TeamCreditUsageResponse200",
    "GetV1TeamCreditUsageResponse200Data",
    "GetV1TeamQueueStatusResponse200",
    "GetV1TeamTokenUsageResponse200",
    "GetV1TeamTokenUsageResponse200Data",
    "GetV2BatchScrapeIdErrorsResponse200",
    "GetV2BatchScrapeIdErrorsResponse200ErrorsItem",
    "GetV2BatchScrapeIdResponse200",
    "GetV2BatchScrapeIdResponse200Status",
    "GetV2ConcurrencyCheckResponse200",
    "GetV2CrawlActiveResponse200",
    "GetV2CrawlActiveResponse200CrawlsItem",
    "GetV2CrawlActiveResponse200CrawlsItemOptionsType0",
    "GetV2CrawlIdErrorsResponse200",
    "GetV2CrawlIdErrorsResponse200ErrorsItem",
    "GetV2CrawlIdResponse200",
    "GetV2CrawlIdResponse200Status",
    "GetV2ExtractIdResponse200",
    "GetV2ExtractIdResponse200Sources",
    "GetV2ExtractIdResponse200Status",
    "GetV2ParseFormatsResponse200",
    "GetV2ParseFormatsResponse200Data",
    "GetV2ParseFormatsResponse200DataFormatsItem",
    "GetV2TeamCreditUsageResponse200",
    "GetV2TeamCreditUsageResponse200Data",
    "GetV2TeamQueueStatusResponse200",
    "GetV2TeamTokenUsageResponse200",
    "GetV2TeamTokenUsageResponse200Data",
    "GetWebhookWhoamiResponse200",
    "MapResult",
    "MapResultCredits",
    "Monitor",
    "MonitorCheck",
    "MonitorCheckDiff",
    "MonitorCheckDiffDiffType0",
    "MonitorCheckDiffType0",
    "MonitorCheckErrorType0",
    "MonitorCheckStatus",
    "MonitorCheckWithSnapshot",
    "MonitorCheckWithSnapshotDiffType0",
    "MonitorCheckWithSnapshotErrorType0",
    "MonitorCheckWithSnapshotStatus",
    "MonitorCompare",
    "MonitorIgnore",
    "MonitorRequest",
    "MonitorSchedule",
    "Notification",
    "PatchApiSubscriptionsCurrentBody",
    "PatchApiSubscriptionsCurrentResponse200",
    "PatchApiSubscriptionsCurrentResponse202",
    "PatchMonitorsIdBody",
    "PatchMonitorsIdBodyCompare",
    "PatchMonitorsIdBodyIgnore",
    "PatchMonitorsIdBodyRequest",
    "PatchMonitorsIdBodyScheduleType0",
    "PatchMonitorsIdBodyScheduleType1",
    "PatchUserTemplatesIdBody",
    "PatchUserTemplatesIdBodyParamsItem",
    "PatchUserTemplatesIdBodyParamsItemType",
    "PatchUserTemplatesIdBodyRequest",
    "Payment",
    "PostApiAuthSignInEmailBody",
    "PostApiAuthSignInEmailResponse200",
    "PostApiAuthSignInEmailResponse200User",
    "PostApiAuthSignOutResponse200",
    "PostApiAuthSignUpEmailBody",
    "PostApiAuthSignUpEmailResponse200",
    "PostApiAuthSignUpEmailResponse200User",
    "PostApiConsentBody",
    "PostApiConsentBodyKind",
    "PostApiConsentResponse201",
    "PostApiConsentResponse201Current",
    "PostApiNotificationsIdReadResponse200",
    "PostApiNotificationsReadAllResponse200",
    "PostApiPaymentsBody",
    "PostApiPaymentsIdLocalWebhookBody",
    "PostApiPaymentsIdLocalWebhookBodyOutcome",
    "PostApiPaymentsIdLocalWebhookResponse200",
    "PostApiPaymentsIdLocalWebhookResponse200Headers",
    "PostApiPaymentsWebhookProviderResponse200",
    "PostApiSubscriptionsBody",
    "PostApiSubscriptionsCurrentCancelResponse200",
    "PostApiSubscriptionsResponse201",
    "PostApiSubscriptionsResponse202",
    "PostApiUsersCreateApiKeysBody",
    "PostApiUsersCreateApiKeysResponse201",
    "PostApiWebhookSecretRotateResponse200",
    "PostApiWebhooksBody",
    "PostApiWebhooksBodyEventsItem",
    "PostApiWebhooksResponse201",
    "PostApiWebhooksResponse201EventsItem",
    "PostBatchScrapeBody",
    "PostBatchScrapeBodyScrape",
    "PostBatchScrapeBodyWebhook",
    "PostBatchScrapeBodyWebhookEventsItem",
    "PostBatchScrapeBodyWebhookMetadata",
    "PostCrawlBody",
    "PostCrawlBodyScrape",
    "PostCrawlBodySitemap",
    "PostCrawlBodyWebhook",
    "PostCrawlBodyWebhookEventsItem",
    "PostCrawlBodyWebhookMetadata",
    "PostDocumentsBody",
    "PostFlowsIdRunsBody",
    "PostFlowsIdRunsBodyWebhook",
    "PostFlowsIdRunsBodyWebhookEventsItem",
    "PostFlowsIdRunsBodyWebhookMetadata",
    "PostFlowsIdRunsRunIdInputBody",
    "PostMapBody",
    "PostMapBodySitemap",
    "PostMonitorsBody",
    "PostMonitorsBodyCompare",
    "PostMonitorsBodyIgnore",
    "PostMonitorsBodyRequest",
    "PostMonitorsBodyScheduleType0",
    "PostMonitorsBodyScheduleType1",
    "PostSearchBody",
    "PostSearchBodyScrape",
    "PostSearchBodySourcesItem",
    "PostSearchBodyTimeRange",
    "PostTemporalCodecDecodeBody",
    "PostTemporalCodecDecodeBodyPayloadsItem",
    "PostTemporalCodecDecodeBodyPayloadsItemMetadataType0",
    "PostTemporalCodecDecodeResponse200",
    "PostTemporalCodecDecodeResponse200PayloadsItem",
    "PostTemporalCodecDecodeResponse200PayloadsItemMetadataType0",
    "PostTemporalCodecEncodeBody",
    "PostTemporalCodecEncodeBodyPayloadsItem",
    "PostTemporalCodecEncodeBodyPayloadsItemMetadataType0",
    "PostTemporalCodecEncodeResponse200",
    "PostTemporalCodecEncodeResponse200PayloadsItem",
    "PostTemporalCodecEncodeResponse200PayloadsItemMetadataType0",
    "PostTemporalCodecTokenDecodeBody",
    "PostTemporalCodecTokenDecodeBodyPayloadsItem",
    "PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0",
    "PostTemporalCodecTokenDecodeResponse200",
    "PostTemporalCodecTokenDecodeResponse200PayloadsItem",
    "PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0",
    "PostTemporalCodecTokenEncodeBody",
    "PostTemporalCodecTokenEncodeBodyPayloadsItem",
    "PostTemporalCodecTokenEncodeBodyPayloadsItemMetadataType0",
    "PostTemporalCodecTokenEncodeResponse200",
    "PostTemporalCodecTokenEncodeResponse200PayloadsItem",
    "PostTemporalCodecTokenEncodeResponse200PayloadsItemMetadataType0",
    "PostUserTemplatesBody",
    "PostUserTemplatesBodyParamsItem",
    "PostUserTemplatesBodyParamsItemType",
    "PostUserTemplatesBodyRequest",
    "PostUserTemplatesIdRunBody",
    "PostUserTemplatesIdRunBodyParams",
    "PostV1BatchScrapeBody",
    "PostV1BatchScrapeResponse200",
    "PostV1CrawlBody",
    "PostV1CrawlResponse200",
    "PostV1ExtractBody",
    "PostV1ExtractBodySchema",
    "PostV1ExtractBodyScrapeOptions",
    "PostV1ExtractResponse200",
    "PostV1SearchResponse200",
    "PostV2BatchScrapeBody",
    "PostV2BatchScrapeResponse200",
    "PostV2CrawlBody",
    "PostV2CrawlParamsPreviewBody",
    "PostV2CrawlParamsPreviewResponse200",
    "PostV2CrawlParamsPreviewResponse200Data",
    "PostV2CrawlResponse200",
    "PostV2ExtractBody",
    "PostV2ExtractBodySchema",
    "PostV2ExtractBodyScrapeOptions",
    "PostV2ExtractResponse200",
    "PostV2ParseBody",
    "PostV2ParseResponse200",
    "PostV2SearchResponse200",
    "PostWebhookUnblockerBody",
    "PostWebhookUnblockerBodyBodyType1",
    "PostWebhookUnblockerBodyCookiesItem",
    "PostWebhookUnblockerBodyCookiesItemSameSite",
    "PostWebhookUnblockerBodyDocument",
    "PostWebhookUnblockerBodyFillForm",
    "PostWebhookUnblockerBodyFillFormFields",
    "PostWebhookUnblockerBodyFormatsItemType0",
    "PostWebhookUnblockerBodyFormatsItemType1Type0",
    "PostWebhookUnblockerBodyFormatsItemType1Type0Css",
    "PostWebhookUnblockerBodyFormatsItemType1Type0Schema",
    "PostWebhookUnblockerBodyFormatsItemType1Type1",
    "PostWebhookUnblockerBodyHeaders",
    "PostWebhookUnblockerBodyMethod",
    "PostWebhookUnblockerBodyMode",
    "PostWebhookUnblockerBodyOptions",
    "PostWebhookUnblockerBodyProxy",
    "PostWebhookUnblockerBodyProxyTier",
    "PostWebhookUnblockerBodySelectorsItemType1",
    "PostWebhookUnblockerBodySession",
    "PostWebhookUnblockerBodyWebhook",
    "PostWebhookUnblockerBodyWebhookEventsItem",
    "PostWebhookUnblockerBodyWebhookMetadata",
    "PutSessionsNameBody",
    "PutSessionsNameBodyCookiesItem",
    "PutSessionsNameBodyCookiesItemSameSite",
    "PutSessionsNameBodyOriginsItem",
    "PutSessionsNameBodyOriginsItemLocalStorageItem",
    "QueuedRun",
    "QueuedRunLinks",
    "QueuedRunStatus",
    "Schema0",
    "Schema0Type",
    "ScrapeActionType0",
    "ScrapeActionType1",
    "ScrapeActionType2",
    "ScrapeActionType3",
    "ScrapeActionType4",
    "ScrapeActionType4Direction",
    "ScrapeActionType5",
    "ScrapeActionType6",
    "ScrapeActionType7",
    "ScrapeResult",
    "ScrapeResultActions",
    "ScrapeResultActionsJavascriptReturnsItem",
    "ScrapeResultActionsScrapesItem",
    "ScrapeResultActionsScreenshotsItem",
    "ScrapeResultCache",
    "ScrapeResultCacheState",
    "ScrapeResultChangeTracking",
    "ScrapeResultChangeTrackingChangeStatus",
    "ScrapeResultCredits",
    "ScrapeResultEscalationItem",
    "ScrapeResultHeaders",
    "ScrapeResultLinksItem",
    "ScrapeResultLlmUsage",
    "ScrapeResultMetadata",
    "ScrapeResultMetadataDocumentType",
    "ScrapeResultMode",
    "ScrapeResultScreenshot",
    "ScrapeResultServedBy",
    "ScrapeRun",
    "ScrapeRunDetail",
    "ScrapeRunDetailErrorType0",
    "ScrapeRunDetailLinks",
    "ScrapeRunDetailStatus",
    "ScrapeRunEscalationItem",
    "ScrapeRunLinks",
    "ScrapeRunProxyAttemptsItem",
    "ScrapeRunStatus",
    "ScrapeRunSummary",
    "ScrapeRunSummaryErrorType0",
    "ScrapeRunSummaryStatus",
    "SearchResult",
    "SearchResultCredits",
    "SearchResultImagesItem",
    "SearchResultImagesItemScrape",
    "SearchResultImagesItemScrapeError",
    "SearchResultImagesItemScrapeResult",
    "SearchResultNewsItem",
    "SearchResultNewsItemScrape",
    "SearchResultNewsItemScrapeError",
    "SearchResultNewsItemScrapeResult",
    "SearchResultWebItem",
    "SearchResultWebItemScrape",
    "SearchResultWebItemScrapeError",
    "SearchResultWebItemScrapeResult",
    "SelectorResult",
    "SelectorResultResultsItem",
    "SelectorResultResultsItemAttributes",
    "Session",
    "Subscription",
    "UserTemplate",
    "UserTemplateParamsItem",
    "UserTemplateRequest",
    "WaitingFlowRun",
    "WaitingFlowRunLinks",
    "WaitingFlowRunStatus",
    "WaitingFlowRunWaitingItem",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookDeliveryStatus",
    "WebhookEndpoint",
    "WebhookEndpointEventsItem",
)
